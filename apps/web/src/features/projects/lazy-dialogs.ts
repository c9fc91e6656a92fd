import { lazyModal } from '../../ui/lazy-modal';

/** The create/edit project dialog, loaded when first opened (it is on /projects and the shell, seldom used). */
export const ProjectFormModal = lazyModal(() => import('./components/ProjectFormModal').then((m) => m.ProjectFormModal));
