/** What other modules see of users: its api (`needs.users`), and the mails that tell a user of a project. */
export type { UsersService } from './users.service.js';
export { addedToProjectMail, invitationMail } from './users.mails.js';
