import { IconPlayerPlay, IconUser, IconWebhook, type Icon } from '@tabler/icons-react';

/** What started a build: a person (manual), a push (webhook), another pipeline's trigger step (pipeline). */
const ICON: Record<string, Icon> = { manual: IconUser, webhook: IconWebhook, pipeline: IconPlayerPlay };

/** The icon of the build page's Trigger fact, after what started the build; a person for a kind it does not know. */
export function BuildTriggerIcon({ trigger }: { trigger: string }) {
  const Glyph = ICON[trigger] ?? IconUser;
  return <Glyph size={16} color="var(--mantine-color-dimmed)" />;
}
