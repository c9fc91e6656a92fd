import { Text, Tooltip, type TextProps } from '@mantine/core';
import { useEffect, useState } from 'react';
import { dayjs, DATE_FORMAT } from './dayjs';

/** "3 minutes ago", refreshed every minute, with the full date on hover. */
export function RelativeTime({ date, ...props }: { date: string | number | Date } & TextProps) {
  const [, tick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => tick((n) => n + 1), 60_000);
    return () => clearInterval(t);
  }, []);
  const d = dayjs(date);
  return (
    <Tooltip label={d.format(`${DATE_FORMAT} HH:mm`)} withArrow openDelay={300}>
      <Text component="time" dateTime={d.toISOString()} size="sm" c="dimmed" {...props}>
        {d.fromNow()}
      </Text>
    </Tooltip>
  );
}
