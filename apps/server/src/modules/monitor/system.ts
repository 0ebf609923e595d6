import { readFile, statfs } from 'node:fs/promises';
import { arch, cpus, freemem, hostname, loadavg, platform, release, totalmem } from 'node:os';
import { resolve, sep } from 'node:path';
import type { DiskInfo, ServerInfo } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

/** Filesystems that hold no disk space of their own. */
const PSEUDO = new Set([
  'proc', 'sysfs', 'devtmpfs', 'devpts', 'tmpfs', 'cgroup', 'cgroup2', 'pstore', 'bpf', 'tracefs', 'debugfs', 'securityfs', 'configfs', 'fusectl',
  'mqueue', 'hugetlbfs', 'autofs', 'binfmt_misc', 'rpc_pipefs', 'nsfs', 'ramfs', 'squashfs', 'efivarfs', 'selinuxfs', 'fuse.gvfsd-fuse', 'fuse.portal',
  'overlay_none', 'nfsd', 'devfs', 'shm',
]);

/** /proc/mounts escapes spaces and the like as octal (\040). */
function unescapeMount(value: string): string {
  return value.replace(/\\([0-7]{3})/g, (_whole, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}

/** Every mounted filesystem with space of its own; the one holding `dataDir` is marked. */
export async function diskInfo(dataDir: string): Promise<DiskInfo[]> {
  const text = await readFile('/proc/mounts', 'utf8');
  const seen = new Set<string>();
  const mounts: Array<{ filesystem: string; mount: string; type: string }> = [];
  for (const line of text.split('\n')) {
    const [device, mount, type] = line.split(' ');
    if (!device || !mount || !type || PSEUDO.has(type)) continue;
    const path = unescapeMount(mount);
    if (seen.has(path)) continue;
    seen.add(path);
    mounts.push({ filesystem: unescapeMount(device), mount: path, type });
  }
  const data = resolve(dataDir);
  const holder = mounts
    .map((m) => m.mount)
    .filter((m) => m === '/' || data === m || data.startsWith(m.endsWith(sep) ? m : m + sep))
    .sort((a, b) => b.length - a.length)[0];
  const disks: DiskInfo[] = [];
  const byDevice = new Set<string>();
  for (const m of mounts) {
    let stats: Awaited<ReturnType<typeof statfs>>;
    try {
      stats = await statfs(m.mount);
    } catch {
      continue;
    }
    const size = stats.blocks * stats.bsize;
    if (size <= 0) continue;
    // a bind mount of the same filesystem shows once (the data folder's mount is kept)
    const key = `${m.filesystem}:${stats.blocks}:${stats.bfree}`;
    if (byDevice.has(key) && m.mount !== holder) continue;
    byDevice.add(key);
    const free = stats.bavail * stats.bsize;
    const used = size - stats.bfree * stats.bsize;
    disks.push({ mount: m.mount, filesystem: m.filesystem, type: m.type, size, free, used, usedPercent: Math.round((used / Math.max(1, used + free)) * 1000) / 10, dataDir: m.mount === holder });
  }
  return disks;
}

const ENGINES = { sqlite: 'SQLite', postgres: 'PostgreSQL', mysql: 'MariaDB/MySQL' } as const;

async function databaseVersion(app: FastifyInstance): Promise<string> {
  const query = app.dialect === 'sqlite' ? sql<{ v: string }>`select sqlite_version() as v` : app.dialect === 'postgres' ? sql<{ v: string }>`show server_version` : sql<{ v: string }>`select version() as v`;
  const result = await query.execute(app.db);
  const row = result.rows[0] as Record<string, unknown> | undefined;
  return String(row ? (row.v ?? row.server_version ?? Object.values(row)[0] ?? '') : '');
}

/** A broker address without user, password, path or query. */
export function brokerAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.hostname.includes(':') ? `[${parsed.hostname}]` : parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}`;
  } catch {
    return '***';
  }
}

export async function serverInfo(app: FastifyInstance): Promise<ServerInfo> {
  const cpuList = cpus();
  const { mqttUrl, mqttPort, host } = app.settings;
  return {
    os: { platform: platform(), release: release(), arch: arch(), hostname: hostname() },
    cpu: { model: cpuList[0]?.model?.trim() ?? '', count: cpuList.length, loadAverage: loadavg().map((l) => Math.round(l * 100) / 100) },
    memory: { total: totalmem(), free: freemem() },
    process: { pid: process.pid, uptimeSeconds: Math.round(process.uptime()), nodeVersion: process.version },
    database: { engine: ENGINES[app.dialect], version: await databaseVersion(app) },
    broker: mqttUrl
      ? { kind: 'external', url: brokerAddress(mqttUrl), connected: app.deviceGateway.connected }
      : mqttPort === 0
        ? { kind: 'none', url: null, connected: false }
        : { kind: 'embedded', url: `mqtt://${host === '0.0.0.0' || host === '::' ? 'localhost' : host}:${mqttPort}`, connected: app.deviceGateway.connected },
  };
}
