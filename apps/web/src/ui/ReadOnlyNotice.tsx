import { Button, Card } from '@mantine/core';
import { useDocumentTitle } from '@mantine/hooks';
import { IconLock } from '@tabler/icons-react';
import type { ProjectAction } from '@gantry/contracts';
import type { ComponentType } from 'react';
import { Link } from 'react-router';
import { useProjectPermission } from '../api/permissions';
import { EmptyState } from './EmptyState';

/** In place of a form the member's role may not save: why (the same words as a refused button's tooltip), and the way back. */
export function ReadOnlyNotice({ action, back }: { action: ProjectAction; back: string }) {
  const why = useProjectPermission().refusal(action);
  useDocumentTitle('Read-only access · Gantry');
  return (
    <Card withBorder radius="md" padding="xl" maw={640} mx="auto" mt="xl" data-testid="read-only-notice">
      <EmptyState
        icon={<IconLock size={28} stroke={1.5} />}
        title="Read-only access"
        description={why}
        action={
          <Button component={Link} to={back} variant="light">
            Back
          </Button>
        }
      />
    </Card>
  );
}

/** The form page, or the read-only notice when the member's known role may not take `action` (the server refuses it either way). */
export function guardForm(Page: ComponentType, action: ProjectAction, back: string): ComponentType {
  function GuardedForm() {
    const { permission, can } = useProjectPermission();
    return permission && !can(action) ? <ReadOnlyNotice action={action} back={back} /> : <Page />;
  }
  return GuardedForm;
}
