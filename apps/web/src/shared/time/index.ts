export { WIRE_DATE_FORMAT, WIRE_TIME_FORMAT, formatTime, fromWire, setSiteTimeZone, siteTimeZone, toPickerValue, toWire, userTimeZone } from './wire-time.ts';
