import type { ReportLine } from '../../integrations/aws-cost/index.js';
import type { ReportRow } from './cost-explorer.store.js';

export interface AccountReport {
  awsAccountId: string;
  accountName: string | null;
  lines: ReportLine[];
  error: string | null;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** RFC 4180 field: quoted when it holds a comma, quote or line break. */
const csvField = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
/**
 * A text cell a spreadsheet must not take for a formula: an account name, a service or a tag value (anyone who may tag
 * resources in the account chooses those) starting with = + - @, a tab or a carriage return is opened by Excel or
 * LibreOffice as a formula (=HYPERLINK(…) sending the sheet's cells away, DDE); a leading ' keeps it text (OWASP).
 */
const textCell = (s: string) => (/^[=+\-@\t\r]/.test(s) ? `'${s}` : s);
const dollars = (n: number) => `$${Math.round(n).toLocaleString('en-US')}`;
const day = (d: Date) => d.toISOString().slice(0, 10);
const total = (lines: ReportLine[]) => lines.reduce((s, l) => s + l.amount, 0);

/**
 * A report's mail: an HTML summary (cost per account and per service in whole dollars, accounts
 * whose costs could not be read) with the same as text, and every line as a CSV attachment.
 */
export function renderReportMail(report: ReportRow, period: { start: Date; end: Date }, accounts: AccountReport[]) {
  const lastDay = new Date(period.end.getTime() - 86_400_000);
  const range = `${day(period.start)} – ${day(lastDay)}`;
  const name = (a: AccountReport) => (a.accountName ? `${a.accountName} (${a.awsAccountId})` : a.awsAccountId);
  const sums = (key: (l: ReportLine) => string) => {
    const out = new Map<string, number>();
    for (const a of accounts) for (const l of a.lines) out.set(key(l), (out.get(key(l)) ?? 0) + l.amount);
    return [...out.entries()].sort((a, b) => b[1] - a[1]);
  };
  const tag = report.costAllocationTag;
  const byService = sums((l) => l.service);
  const byTag = tag ? sums((l) => l.tagValue || '(untagged)') : [];
  const all = total(accounts.flatMap((a) => a.lines));
  const ok = accounts.filter((a) => !a.error);
  const failed = accounts.filter((a) => a.error);

  const cellStyle = (th: boolean, i: number) =>
    `padding:6px 14px;border-bottom:1px solid #e5e7eb;text-align:${i ? 'right' : 'left'}${th ? ';background:#f3f4f6;font-weight:600' : ''}`;
  const row = (cells: string[], th = false) =>
    `<tr>${cells.map((c, i) => `<${th ? 'th' : 'td'} style="${cellStyle(th, i)}">${escapeHtml(c)}</${th ? 'th' : 'td'}>`).join('')}</tr>`;
  const table = (head: string[], rows: [string, number][]) =>
    `<table style="border-collapse:collapse;margin:8px 0 20px;border:1px solid #e5e7eb" cellspacing="0">${row(head, true)}${rows.map(([k, n]) => row([k, dollars(n)])).join('')}</table>`;
  const html = [
    '<div style="font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;font-size:14px;color:#111827">',
    `<h2 style="margin:0 0 4px">${escapeHtml(report.reportName)}</h2>`,
    `<p>${report.granularity === 'WEEKLY' ? 'Weekly' : 'Monthly'} AWS costs for ${escapeHtml(range)} in ${escapeHtml(report.regions.join(', '))}: <strong>${dollars(all)}</strong></p>`,
    table(
      ['AWS account', 'Cost'],
      ok.map((a) => [name(a), total(a.lines)]),
    ),
    byService.length ? table(['Service', 'Cost'], byService) : '<p>No costs in this period.</p>',
    byTag.length ? table([tag!, 'Cost'], byTag) : '',
    failed.length ? `<p style="color:#b91c1c">Costs could not be read for: ${failed.map((a) => escapeHtml(`${name(a)}: ${a.error}`)).join('; ')}</p>` : '',
    '<p style="color:#6b7280">Every line is in the attached CSV file.</p>',
    '</div>',
  ].join('\n');
  const text = [
    `${report.reportName}: AWS costs for ${range} in ${report.regions.join(', ')}: ${dollars(all)}`,
    '',
    ...ok.map((a) => `${name(a)}: ${dollars(total(a.lines))}`),
    '',
    ...byService.map(([s, n]) => `${s}: ${dollars(n)}`),
    ...(byTag.length ? ['', ...byTag.map(([v, n]) => `${tag} ${v}: ${dollars(n)}`)] : []),
    ...failed.map((a) => `Costs could not be read for ${name(a)}: ${a.error}`),
    '',
    'Every line is in the attached CSV file.',
  ].join('\n');

  const header = ['AWS account', 'Account name', 'Start', 'End', 'Service', ...(tag ? [textCell(tag)] : []), 'Cost (USD)'];
  const csvRows = accounts.flatMap((a) =>
    a.lines.map((l) => [
      a.awsAccountId,
      textCell(a.accountName ?? ''),
      l.start,
      l.end,
      textCell(l.service),
      ...(tag ? [textCell(l.tagValue ?? '')] : []),
      l.amount.toFixed(2),
    ]),
  );
  const csv = [header, ...csvRows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
  const slug =
    report.reportName
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .toLowerCase() || 'report';
  return {
    subject: `${report.reportName}: AWS costs ${range}`,
    html,
    text,
    attachment: { filename: `${slug}-${day(period.start)}.csv`, contentType: 'text/csv', content: csv },
  };
}
