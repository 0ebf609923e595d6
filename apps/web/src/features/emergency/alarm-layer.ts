/** Above every notice and toast of the console (antd's reach 2050): nothing covers the alarm's controls. */
export const ALARM_Z_INDEX = 2100;
/** the alarm's own popups (the End confirmation) sit above it */
export const ALARM_POPUP_Z_INDEX = ALARM_Z_INDEX + 100;
