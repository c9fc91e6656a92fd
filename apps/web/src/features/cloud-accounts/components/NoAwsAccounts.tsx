import { Button, Card } from '@mantine/core';
import { IconCloud } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyState } from '../../../ui/EmptyState';

/** The empty state of a screen that needs a connected AWS account (spec §2.10): why, and Connect AWS Account. */
export function NoAwsAccounts({ description }: { description: string }) {
  return (
    <Card withBorder radius="md" padding={0}>
      <EmptyState
        title="No AWS accounts connected"
        icon={<IconCloud size={28} stroke={1.5} />}
        color="orange"
        description={description}
        action={
          <Button component={Link} to="/settings?tab=accounts">
            Connect AWS Account
          </Button>
        }
      />
    </Card>
  );
}
