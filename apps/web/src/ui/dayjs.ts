import dayjs from 'dayjs';
import relativeTime from 'dayjs/plugin/relativeTime';

dayjs.extend(relativeTime);

/** The date format of the portal (spec §9). */
export const DATE_FORMAT = 'D MMMM YYYY';
export const formatDate = (d: string | number | Date | null | undefined) => (d ? dayjs(d).format(DATE_FORMAT) : '—');

export { dayjs };
