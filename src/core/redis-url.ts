import { ConfigError } from './errors.ts';

/**
 * Where a Redis server is, from a `redis://[user:password@]host:port[/db]` URL (`rediss://` for
 * TLS): the sweep queue (`--queue`) and the shared rate budget (`venue.rateBudget.redis`) both
 * name their Redis this way. The password is kept for the connection only: `display` is the URL
 * with it replaced by `***`, the form every message and log line uses.
 */
export interface RedisTarget {
  readonly host: string;
  readonly port: number;
  readonly db: number;
  readonly username?: string;
  readonly password?: string;
  readonly tls: boolean;
  /** The URL without its password, for messages. */
  readonly display: string;
}

/** Parses a Redis URL; a bad one is a ConfigError naming `where` (a flag or a config key) and the URL without its password. */
export function parseRedisUrl(text: string, where: string): RedisTarget {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new ConfigError(`${where}: must be a Redis URL like redis://127.0.0.1:6379, was '${hidePassword(text)}'`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new ConfigError(`${where}: must use redis:// or rediss://, was '${hidePassword(text)}'`);
  }
  if (url.hostname === '') throw new ConfigError(`${where}: needs a host, as in redis://127.0.0.1:6379`);
  const port = url.port === '' ? 6379 : Number(url.port);
  const path = url.pathname.replace(/^\/+/, '');
  if (path !== '' && !/^\d{1,2}$/.test(path)) throw new ConfigError(`${where}: the path must be a database number (redis://host:port/0), was '/${path}'`);
  if (url.search !== '' || url.hash !== '') throw new ConfigError(`${where}: must not have a query or fragment`);
  const username = url.username === '' ? undefined : decodeURIComponent(url.username);
  const password = url.password === '' ? undefined : decodeURIComponent(url.password);
  const display = `${url.protocol}//${username !== undefined ? `${username}${password !== undefined ? ':***' : ''}@` : password !== undefined ? ':***@' : ''}${url.host}${path !== '' ? `/${path}` : ''}`;
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port,
    db: path === '' ? 0 : Number(path),
    ...(username !== undefined ? { username } : {}),
    ...(password !== undefined ? { password } : {}),
    tls: url.protocol === 'rediss:',
    display,
  };
}

function hidePassword(text: string): string {
  return text.replace(/(\/\/[^:/@]*:)[^@]*@/, '$1***@');
}

/** The connection fields of a target, as ioredis (and BullMQ's connection option) take them. */
export function redisConnectionFields(target: RedisTarget): { host: string; port: number; db: number; username?: string; password?: string; tls?: object } {
  return {
    host: target.host,
    port: target.port,
    db: target.db,
    ...(target.username !== undefined ? { username: target.username } : {}),
    ...(target.password !== undefined ? { password: target.password } : {}),
    ...(target.tls ? { tls: {} } : {}),
  };
}
