// The baseline of the start benchmarks: a bare node:http server answering the login from a better-sqlite3 database,
// started the way `npm start` starts the console (plain node, listening on PORT of 127.0.0.1).
import Database from 'better-sqlite3';
import { createServer } from 'node:http';
import { join } from 'node:path';

const db = new Database(join(process.env.DATA_DIR ?? '.', 'bare.db'));
db.exec('create table if not exists users (name text primary key, password text not null)');
db.prepare('insert or ignore into users values (?, ?)').run('admin', process.env.ADMIN_PASSWORD ?? '');
const find = db.prepare('select password from users where name = ?');

createServer((request, response) => {
  let body = '';
  request.on('data', (chunk) => (body += chunk));
  request.on('end', () => {
    const { username, password } = JSON.parse(body || '{}');
    const row = find.get(username);
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ success: row?.password === password, result: {} }));
  });
}).listen(Number(process.env.PORT), '127.0.0.1');
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(0));
