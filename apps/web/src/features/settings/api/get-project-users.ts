import { useQuery } from '@tanstack/react-query';
import { projectUsersQuery } from '../../../api/project-users';

export { getProjectUsers, projectUsersQuery } from '../../../api/project-users';

export const useProjectUsers = (projectId: string) => useQuery(projectUsersQuery(projectId));
