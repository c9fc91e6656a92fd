/** The saving schedules of the Cloud Waste Manager, as the environment screens read and write them (the schedules feature owns them). */
export { changeScheduleState, createSchedule, deleteSchedule, updateSchedule, useSchedules } from '../../schedules';
