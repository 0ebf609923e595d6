export { EmergencyAlarm } from './emergency-alarm.tsx';
