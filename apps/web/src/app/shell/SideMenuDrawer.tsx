import { Drawer } from '@mantine/core';
import type { CurrentProject } from '../../api/session';
import { SideMenu } from './SideMenu';

/** In a narrow window the side menu opens over the page, from the rail's menu button (AppLayout). */
export function SideMenuDrawer({ opened, onClose, project, width }: { opened: boolean; onClose: () => void; project: CurrentProject | null; width: number }) {
  return (
    <Drawer opened={opened} onClose={onClose} size={width} withCloseButton={false} padding={0} styles={{ body: { height: '100%' } }}>
      <SideMenu project={project} />
    </Drawer>
  );
}
