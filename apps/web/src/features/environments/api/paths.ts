/** Paths of the environments area (the API says stage). */
export const stagesPath = (projectId: string) => `/ms-engine/projects/${projectId}/stages`;
export const stagePath = (projectId: string, stageId: string) => `${stagesPath(projectId)}/${stageId}`;
export const resourcePath = (projectId: string, stageId: string, name: string) => `${stagePath(projectId, stageId)}/resources/${encodeURIComponent(name)}`;
