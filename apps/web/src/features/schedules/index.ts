/**
 * The saving schedules feature's public surface: its routes, the schedule list and calls the environment screens share
 * (their saving schedule is one of these rules), and the side menu's rule for the Cloud Waste Manager section.
 */
export { scheduleRoutes } from './routes';
export { scheduleKeys } from './api/keys';
export { useSchedules, useCostToolsVisible, costToolsVisible, createSchedule, updateSchedule, deleteSchedule, changeScheduleState } from './api/schedules';
