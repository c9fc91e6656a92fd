import { Button, Card } from '@mantine/core';
import { IconCloud } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyState } from '../../../ui/EmptyState';
import { Permitted } from '../../../ui/Permitted';

/**
 * The empty state of a screen that needs a connected AWS account (spec §2.10): why, and Connect AWS Account — disabled
 * with the reason for a member who may not connect one (Settings → Cloud Accounts refuses them too).
 */
export function NoAwsAccounts({ description }: { description: string }) {
  return (
    <Card withBorder radius="md" padding={0}>
      <EmptyState
        title="No AWS accounts connected"
        icon={<IconCloud size={28} stroke={1.5} />}
        color="orange"
        description={description}
        action={
          <Permitted action="change">
            {(disabled) =>
              disabled ? (
                <Button disabled>Connect AWS Account</Button>
              ) : (
                <Button component={Link} to="/settings?tab=accounts">
                  Connect AWS Account
                </Button>
              )
            }
          </Permitted>
        }
      />
    </Card>
  );
}
