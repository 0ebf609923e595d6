export { DeviceEntityScreen } from './device-screen.tsx';
