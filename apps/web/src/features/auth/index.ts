/** The auth feature's public surface: its routes, and the login page the guards show in place. */
export { guestRoutes, setPasswordRoutes, loadLoginPage } from './routes';
