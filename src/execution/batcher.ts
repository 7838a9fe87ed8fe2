import { Observable, type OperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';

/**
 * Groups items into batches of at most `maxSize`. The first item of a batch starts a timer of
 * `maxWaitMs` on the given scheduler; the batch is emitted when it is full or the timer fires,
 * whichever is first. Nothing is emitted while idle (unlike bufferTime). On completion a pending
 * partial batch is flushed.
 */
export function batchWithin<T>(maxWaitMs: number, maxSize: number, scheduler: SchedulerLike): OperatorFunction<T, T[]> {
  if (maxSize < 1) throw new RangeError(`maxSize must be >= 1, was ${maxSize}`);
  return (source) =>
    new Observable<T[]>((subscriber) => {
      let batch: T[] = [];
      let timer: Subscription | undefined;
      const flush = (): void => {
        timer?.unsubscribe();
        timer = undefined;
        if (batch.length === 0) return;
        const out = batch;
        batch = [];
        subscriber.next(out);
      };
      const sub = source.subscribe({
        next(item) {
          batch.push(item);
          if (batch.length >= maxSize) {
            flush();
          } else if (!timer) {
            timer = scheduler.schedule(flush, maxWaitMs);
          }
        },
        error(err) {
          timer?.unsubscribe();
          subscriber.error(err);
        },
        complete() {
          flush();
          subscriber.complete();
        },
      });
      return () => {
        timer?.unsubscribe();
        sub.unsubscribe();
      };
    });
}
