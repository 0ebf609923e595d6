// The baseline of the start benchmarks: a bare node:http server answering the login from a better-sqlite3 database,
// started the way `npm start` starts the console (plain node, listening on PORT of 127.0.0.1).
// Like any real login, it checks the password against a stored argon2id hash, with the console's library and cost
// (@node-rs/argon2, memoryCost 19456 KiB, timeCost 2, parallelism 1: passwordHashing in apps/server/src/config.ts).
// The hash is made once, when its database is first set up, as the console's seed makes the administrator's at its
// first start; the measured starts (an installed console) only read it, like the console's.
import { hash, verify } from '@node-rs/argon2';
import Database from 'better-sqlite3';
import { createServer } from 'node:http';
import { join } from 'node:path';

const db = new Database(join(process.env.DATA_DIR ?? '.', 'bare.db'));
db.exec('create table if not exists users (name text primary key, password_hash text not null)');
const find = db.prepare('select password_hash from users where name = ?');
if (!find.get('admin')) {
  const passwordHash = await hash(process.env.ADMIN_PASSWORD ?? '', { memoryCost: 19_456, timeCost: 2, parallelism: 1 });
  db.prepare('insert into users values (?, ?)').run('admin', passwordHash);
}

createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', async () => {
    const { username, password } = JSON.parse(body || '{}');
    const row = find.get(username);
    const success = row ? await verify(row.password_hash, String(password ?? '')).catch(() => false) : false;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ success, result: {} }));
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(0));
