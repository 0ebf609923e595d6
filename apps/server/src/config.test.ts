import { mkdtempSync, rmSync, statSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, resolveTokenPepper } from './config.ts';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('configuration', () => {
  it('uses the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8080, host: '0.0.0.0', apiPrefix: '/api', mqttPort: 1884, mqttMaxPacketKb: 256, loginCaptcha: true, logLevel: 'info', redisUrl: null, dialect: 'sqlite' });
    expect(config.databaseUrl).toBe(join(config.dataDir, 'isps.db'));
  });

  it('recognises each database kind', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).dialect).toBe('postgres');
    expect(loadConfig({ DATABASE_URL: 'mysql://u@h/db' }).dialect).toBe('mysql');
    expect(loadConfig({ DATABASE_URL: '/var/lib/isps/console.db' })).toMatchObject({ dialect: 'sqlite', databaseUrl: '/var/lib/isps/console.db' });
    expect(loadConfig({ LOGIN_CAPTCHA: 'off' }).loginCaptcha).toBe(false);
  });

  it('names every bad variable and what it allows', () => {
    const problems = problemsOf({ PORT: 'eighty', LOGIN_CAPTCHA: 'maybe', DATABASE_URL: 'oracle://x', API_PREFIX: 'api/', LOG_LEVEL: 'loud', MQTT_PORT: '70000' });
    expect(problems).toHaveLength(6);
    expect(problems.find((p) => p.startsWith('PORT'))).toBe('PORT must be an integer from 0 to 65535; got "eighty"');
    expect(problems.find((p) => p.startsWith('LOGIN_CAPTCHA'))).toContain('on or off');
    expect(problems.find((p) => p.startsWith('DATABASE_URL'))).toContain('postgres://');
    expect(problems.find((p) => p.startsWith('LOG_LEVEL'))).toContain('info');
    expect(problems.some((p) => p.startsWith('API_PREFIX'))).toBe(true);
    expect(problems.some((p) => p.startsWith('MQTT_PORT'))).toBe(true);
  });

  it('takes MQTT_MAX_PACKET_KB as the embedded broker\'s packet limit after sign-in, 256 KiB by default', () => {
    expect(loadConfig({ MQTT_MAX_PACKET_KB: '1024' }).mqttMaxPacketKb).toBe(1024);
    for (const bad of ['0', '3', '1.5', 'big', '70000']) expect(problemsOf({ MQTT_MAX_PACKET_KB: bad }), bad).toEqual([`MQTT_MAX_PACKET_KB must be an integer from 4 to 65536 (KiB); got ${JSON.stringify(bad)}`]);
  });

  it('takes API_KEY_RATE_PER_MINUTE as the calls each API key may make a minute, 600 by default', () => {
    expect(loadConfig({}).rateLimit.apiKeyPerMinute).toBe(600);
    expect(loadConfig({ API_KEY_RATE_PER_MINUTE: '60' }).rateLimit.apiKeyPerMinute).toBe(60);
    expect(problemsOf({ API_KEY_RATE_PER_MINUTE: '0' })).toEqual(['API_KEY_RATE_PER_MINUTE must be an integer from 1 to 1000000; got "0"']);
  });

  it('reads the optional SMTP settings of the message center and never echoes a rejected SMTP_URL', () => {
    expect(loadConfig({}).smtp).toEqual({ url: null, from: 'ISPS Console <no-reply@localhost>' });
    expect(loadConfig({ SMTP_URL: 'smtps://mailer:secret@mail.example.com:465', SMTP_FROM: 'Console <c@example.com>' }).smtp).toEqual({
      url: 'smtps://mailer:secret@mail.example.com:465',
      from: 'Console <c@example.com>',
    });
    const problems = problemsOf({ SMTP_URL: 'http://mailer:secret@mail.example.com', SMTP_FROM: 'nobody' });
    expect(problems).toHaveLength(2);
    expect(problems.find((p) => p.startsWith('SMTP_URL'))).toContain('smtp://');
    expect(problems.join()).not.toContain('secret');
  });

  it('reads the CAS server and the one service URL tickets are validated for, and a few seconds for outbound calls', () => {
    expect(loadConfig({})).toMatchObject({ casServerUrl: null, casServiceUrl: null, outboundTimeoutMs: 5000 });
    const config = loadConfig({ CAS_SERVER_URL: 'https://sso.example.com/cas/', CAS_SERVICE_URL: 'https://console.example.com/user/apilogin' });
    expect(config).toMatchObject({ casServerUrl: 'https://sso.example.com/cas', casServiceUrl: 'https://console.example.com/user/apilogin' });
    expect(problemsOf({ CAS_SERVICE_URL: 'console/user/apilogin' }).join()).toContain('CAS_SERVICE_URL');
  });

  it('takes TIME_ZONE as an IANA zone name, the machine\'s zone by default', () => {
    expect(loadConfig({}).timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(loadConfig({ TIME_ZONE: 'Asia/Tokyo' }).timeZone).toBe('Asia/Tokyo');
    expect(loadConfig({ TIME_ZONE: 'UTC' }).timeZone).toBe('UTC');
    expect(problemsOf({ TIME_ZONE: 'Mars/Olympus_Mons' })).toEqual(['TIME_ZONE must be an IANA time zone name such as Asia/Shanghai, Europe/Berlin or UTC; got "Mars/Olympus_Mons"']);
    expect(problemsOf({ TIME_ZONE: '+09:00' })).toHaveLength(1);
  });

  it('takes PUBLIC_URL as an absolute http(s) URL without credentials, none by default, and names a bad one at start', () => {
    expect(loadConfig({}).publicUrl).toBeNull();
    expect(loadConfig({ PUBLIC_URL: 'https://console.example.com/' }).publicUrl).toBe('https://console.example.com');
    expect(loadConfig({ PUBLIC_URL: 'http://10.0.0.5:8080/isps' }).publicUrl).toBe('http://10.0.0.5:8080/isps');
    for (const bad of ['console.example.com', '/api', 'ftp://console.example.com', 'https://', 'https://console.example.com/?x=1', 'https://console.example.com/#top', 'javascript:alert(1)']) {
      expect(problemsOf({ PUBLIC_URL: bad }), bad).toEqual([`PUBLIC_URL must be an absolute http(s):// URL such as https://console.example.com, without user, password, query or fragment; got ${JSON.stringify(bad)}`]);
    }
    // a URL with credentials is refused and its password never echoed
    const [withUser] = problemsOf({ PUBLIC_URL: 'https://admin:s3cret@console.example.com' });
    expect(withUser).toContain('PUBLIC_URL must be');
    expect(withUser).not.toContain('s3cret');
  });

  it('never echoes a rejected secret', () => {
    const [problem] = problemsOf({ ADMIN_PASSWORD: 'short' });
    expect(problem).toContain('ADMIN_PASSWORD');
    expect(problem).not.toContain('short');
  });

  it('generates the token pepper once into DATA_DIR/secrets.json with mode 0600', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'isps-config-'));
    try {
      const config = loadConfig({ DATA_DIR: dataDir });
      const first = resolveTokenPepper(config);
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(resolveTokenPepper(config)).toBe(first);
      const file = join(dataDir, 'secrets.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ tokenPepper: first });
      const given = 'g'.repeat(40);
      expect(resolveTokenPepper(loadConfig({ DATA_DIR: dataDir, TOKEN_PEPPER: given }))).toBe(given);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
