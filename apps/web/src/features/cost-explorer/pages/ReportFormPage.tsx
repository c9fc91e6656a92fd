import { Anchor, Button, Card, Group, SegmentedControl, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AWS_REGIONS, ReportBody } from '@gantry/contracts';
import { errorMessage, isApiError } from '../../../api/errors';
import { useCurrentProject } from '../../../api/session';
import { toast } from '../../../api/toast';
import { EmptyState } from '../../../ui/EmptyState';
import { FormSection } from '../../../ui/FormSection';
import { PageHeader } from '../../../ui/PageHeader';
import { PillsPicker } from '../../../ui/PillsPicker';
import { useForm } from '../../../ui/form';
import { useAwsAccounts } from '../../cloud-accounts';
import { useProjectUsers } from '../../settings';
import { useReport, useReportMutations } from '../api/cost';
import { ACCOUNT_PILLS, EMAIL_PILLS, emptyReportForm, reportFormFrom, toReportInput, type ReportFormValues } from '../lib/report-form';

const DASHBOARD = '/tools/cost-explorer';
const REGION_OPTIONS = AWS_REGIONS.map((r) => ({ value: r, label: r }));

function ReportForm({ projectId, reportId, initialValues }: { projectId: string; reportId: string | null; initialValues: ReportFormValues }) {
  const navigate = useNavigate();
  const form = useForm({ initialValues, schema: ReportBody, toInput: toReportInput });
  const v = form.values;
  const accounts = useAwsAccounts(projectId);
  const users = useProjectUsers(projectId);
  const { save } = useReportMutations(projectId);
  const submit = form.onSubmit((body) =>
    save.mutate(
      { id: reportId ?? undefined, body },
      {
        onSuccess: (r) => {
          toast.success(reportId ? `Updated report ${r.reportName}.` : `Created report ${r.reportName}.`);
          navigate(DASHBOARD);
        },
        onError: (e) => {
          if (isApiError(e) && e.fields) form.setServerErrors(e.fields);
          toast.apiError(e);
        },
      },
    ),
  );
  // zod reports a bad address at emails.N: show it on the picker
  const emailError = form.errors.emails ?? Object.entries(form.errors).find(([k, m]) => k.startsWith('emails.') && m)?.[1];

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="lg">
        <FormSection title="Report" description="What the e-mail is called and how often it goes out">
          <TextInput label="Report name" withAsterisk placeholder="Weekly AWS costs" {...form.getInputProps('reportName')} />
          <div>
            <Text size="sm" fw={500} mb={4}>
              Granularity
            </Text>
            <SegmentedControl
              value={v.granularity}
              onChange={(g) => form.setFieldValue('granularity', g as ReportFormValues['granularity'])}
              data={[
                { value: 'WEEKLY', label: 'Weekly' },
                { value: 'MONTHLY', label: 'Monthly' },
              ]}
            />
          </div>
        </FormSection>
        <FormSection title="Scope" description="The accounts and regions whose costs the report sums">
          <PillsPicker
            label="AWS accounts"
            withAsterisk
            placeholder="Pick accounts"
            options={(accounts.data ?? []).map((a) => ({ value: a.id, label: `${a.accountName} (${a.id})` }))}
            value={v.awsAccountIds}
            onChange={(x) => form.setFieldValue('awsAccountIds', x)}
            maxPills={ACCOUNT_PILLS}
            error={form.errors.awsAccountIds}
            data-testid="report-accounts"
          />
          <PillsPicker
            label="Regions"
            withAsterisk
            placeholder="Pick regions"
            options={REGION_OPTIONS}
            value={v.regions}
            onChange={(x) => form.setFieldValue('regions', x)}
            maxPills={ACCOUNT_PILLS}
            error={form.errors.regions}
            data-testid="report-regions"
          />
          <TextInput
            label="Cost allocation tag"
            placeholder="gantry:environment"
            description="Optional: the costs are also grouped by this tag's values"
            {...form.getInputProps('costAllocationTag')}
          />
        </FormSection>
        <FormSection title="Recipients" description="Type addresses or pick project members">
          <PillsPicker
            label="E-mails"
            withAsterisk
            creatable
            placeholder="name@example.com"
            options={(users.data ?? []).map((u) => ({ value: u.email, label: `${u.firstName} ${u.lastName} <${u.email}>`.trim() }))}
            value={v.emails}
            onChange={(x) => form.setFieldValue('emails', x)}
            maxPills={EMAIL_PILLS}
            error={emailError}
            data-testid="report-emails"
          />
        </FormSection>
        <Group justify="flex-end">
          <Button variant="default" component={Link} to={DASHBOARD}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {reportId ? 'Update Report' : 'Create Report'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** /tools/cost-explorer/reports/create and /tools/cost-explorer/reports/edit?id=… (spec §2.10, §5). */
export default function ReportFormPage() {
  const [params] = useSearchParams();
  const reportId = params.get('id');
  const projectId = useCurrentProject()?.id ?? '';
  const report = useReport(projectId, reportId);
  const title = reportId ? 'Update Report' : 'Create Report';

  let body;
  if (reportId && report.isError) {
    body = (
      <Card withBorder radius="md" padding={0}>
        <EmptyState title="This report could not be loaded" description={errorMessage(report.error)} />
      </Card>
    );
  } else if (reportId && !report.data) {
    body = <Skeleton height={420} radius="md" />;
  } else {
    body = (
      <ReportForm
        key={reportId ?? 'new'}
        projectId={projectId}
        reportId={reportId}
        initialValues={report.data ? reportFormFrom(report.data) : emptyReportForm()}
      />
    );
  }
  return (
    <Stack gap="lg" maw={860}>
      <Anchor component={Link} to={DASHBOARD} size="sm" c="dimmed">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          Back to Cost Explorer
        </Group>
      </Anchor>
      <PageHeader title={title} description="A cost summary e-mailed on its period, with a CSV attachment" />
      {body}
    </Stack>
  );
}
