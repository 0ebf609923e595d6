import type { Fleet } from './fleet.ts';

export const PROMPT_HELP = `Commands:
  quake <intensity>     every quake sensor reports a quake of that intensity (0-12; the console's threshold starts the emergency)
  alarm [code] [sn]     a device (the named one, else one at random) raises an alarm (its kind's code, or the one given)
  status                devices online, alarms raised
  help                  this list
`;

/** Runs one line typed at the simulator's prompt; answers what to print. */
export async function runPromptCommand(line: string, fleet: Fleet): Promise<string> {
  const [command = '', ...args] = line.trim().split(/\s+/);
  switch (command.toLowerCase()) {
    case '':
      return '';
    case 'quake': {
      const intensity = Number(args[0]);
      if (args[0] === undefined || !Number.isInteger(intensity) || intensity < 0 || intensity > 12) return 'quake needs an intensity: a whole number from 0 to 12 (e.g. quake 7)\n';
      const sensors = fleet.devices.filter((d) => d.kind === 'quake' && d.online);
      if (sensors.length === 0) return 'no quake sensor online: start the simulator with quake among --kinds\n';
      await Promise.all(sensors.map((d) => d.quake(intensity)));
      return `${sensors.length} quake sensor(s) reported intensity ${intensity}\n`;
    }
    case 'alarm': {
      const sn = args.find((a) => fleet.devices.some((d) => d.sn === a));
      const code = args.find((a) => a !== sn);
      const online = fleet.devices.filter((d) => d.online && (sn === undefined || d.sn === sn));
      const device = online[Math.floor(Math.random() * online.length)];
      if (!device) return sn ? `${sn} is offline\n` : 'no device online\n';
      const event = await device.raiseAlarm(code);
      return `${device.sn} raised alarm ${String(event.data.code)}\n`;
    }
    case 'status': {
      const online = fleet.devices.filter((d) => d.online).length;
      const alarms = fleet.devices.reduce((sum, d) => sum + d.alarms, 0);
      return `online ${online}/${fleet.devices.length}  alarms raised ${alarms}\n`;
    }
    case 'help':
    case '?':
      return PROMPT_HELP;
    default:
      return `unknown command "${command}"\n${PROMPT_HELP}`;
  }
}
