import { DeviceAuditStatus, DeviceCodePath, TOKEN_HEADER, type DeviceCodeRow, type Envelope } from '@isps/contract';

/**
 * Gets device keys the way an administrator does: issues an activation code for each serial number (or finds the
 * one it has) and approves it; the approval answers a new device key. `apiBase` includes the API prefix
 * (http://127.0.0.1:8080/api); `token` is a session token of a user holding device:deviceCode:add and :audit.
 */
export async function provisionDevices(apiBase: string, token: string, sns: readonly string[]): Promise<Map<string, string>> {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<Envelope<T>> => {
    const response = await fetch(apiBase + path, {
      method,
      headers: { [TOKEN_HEADER]: token, 'content-type': 'application/json', lang: 'en-US' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await response.json()) as Envelope<T>;
  };
  const keys = new Map<string, string>();
  for (const sn of sns) {
    const added = await call<DeviceCodeRow>('POST', DeviceCodePath.add, { sn });
    let id = added.success ? added.result.id : null;
    if (!id) {
      const found = await call<{ records: DeviceCodeRow[] }>('GET', `${DeviceCodePath.list}?sn=${encodeURIComponent(sn)}`);
      id = found.result?.records?.[0]?.id ?? null;
      if (!id) throw new Error(`no device code for ${sn}: ${added.message}`);
    }
    const audited = await call<{ deviceKey: string | null }>('PUT', DeviceCodePath.audit, { id, auditStatus: DeviceAuditStatus.agree });
    if (!audited.success || !audited.result.deviceKey) throw new Error(`approval of ${sn} failed: ${audited.message}`);
    keys.set(sn, audited.result.deviceKey);
  }
  return keys;
}

/**
 * Where a device fetches a download the server names, with its key in the headers: the path resolved against the
 * server it was provisioned with (`apiBase`), or the command's absolute URL only when it is of that same origin. Null
 * (the device refuses) without a provisioned server, or for a URL of another origin: a command never sends the key
 * elsewhere.
 */
export function provisionedUrl(apiBase: string | undefined, target: { path: string; url?: string }): string | null {
  if (!apiBase || !URL.canParse(apiBase)) return null;
  const server = new URL(apiBase);
  if (target.url !== undefined) return URL.canParse(target.url) && new URL(target.url).origin === server.origin ? target.url : null;
  // a path below the server's API base, never a scheme-relative `//host/...` one
  if (!target.path.startsWith('/') || target.path.startsWith('//')) return null;
  const resolved = new URL(`${apiBase.replace(/\/+$/, '')}${target.path}`);
  return resolved.origin === server.origin ? resolved.href : null;
}
