import type { VenueFill } from '../execution-client.ts';
import { fillsOfTrade, isNews, type FillOwner } from './trade-fills.ts';
import { decodeUserChannelText } from './user-channel-messages.ts';

/** One recorded user-channel message: its text and when the run received it (the journal's `userChannel` notes). */
export interface RecordedUserMessage {
  readonly text: string;
  readonly at: number;
}

/** What a replay of recorded user-channel messages gives: the fills as the run took them, and the venue's cancels. */
export interface UserChannelReplay {
  /** Each fill (and each later status of it) that was news when its message arrived, in arrival order. */
  readonly fills: readonly VenueFill[];
  /** Each trade's last status, by `tradeId:orderId`. */
  readonly finalStatus: ReadonlyMap<string, string>;
  /** Order ids the venue said it cancelled. */
  readonly cancelled: readonly string[];
  /** Messages re-sent at a status already seen (dropped, as the run dropped them). */
  readonly duplicates: number;
}

/**
 * Replays a run's recorded user-channel messages (the store's journal, docs/user-channel.md)
 * through the same decoding, ownership and de-duplication the live run used: the fills it learned
 * from the channel, in order, for an audit of the run's store against the venue or a re-run of
 * its fill stream. Fills the run learned only by polling (while the channel was down) are not in
 * the recording; the store's fills hold them.
 */
export function replayUserChannel(messages: Iterable<RecordedUserMessage>, owner: FillOwner): UserChannelReplay {
  const fills: VenueFill[] = [];
  const status = new Map<string, string>();
  const cancelled: string[] = [];
  let duplicates = 0;
  for (const recorded of messages) {
    for (const m of decodeUserChannelText(recorded.text)) {
      if (m.kind === 'order') {
        if (m.event === 'CANCELLATION') cancelled.push(m.order.id);
        continue;
      }
      for (const fill of fillsOfTrade(m.trade, owner, recorded.at)) {
        const key = `${fill.tradeId}:${fill.orderId}`;
        if (!isNews(status.get(key), fill.status)) {
          duplicates++;
          continue;
        }
        status.set(key, fill.status);
        fills.push(fill);
      }
    }
  }
  return { fills, finalStatus: status, cancelled, duplicates };
}
