/** The slice of pino's logger the venue client uses; a pino logger satisfies it as is. */
export interface VenueLogger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  /** One line per venue request at `logging.level: trace` (pino has both). */
  trace?(obj: object, msg?: string): void;
  isLevelEnabled?(level: string): boolean;
}
