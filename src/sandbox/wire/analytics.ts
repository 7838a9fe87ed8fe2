import type { Micros } from '../../core/fixed.ts';
import { MICROS_PER_UNIT } from '../../core/fixed.ts';
import type { WireActivity, WireClosedPosition, WireHolder, WireTradeFill } from '../../venue/wire/analytics.ts';
import { analyticsAsset, type SandboxProfile } from '../profile.ts';
import { isoTime } from '../world/ids.ts';
import type { SandboxClosedPosition, SandboxFill, SandboxHolding, SandboxWallet } from '../world/model.ts';

/** World objects in the wallet-analytics wire shapes (interface 2.2-2.5). Numbers are JSON numbers. */

const toNumber = (m: Micros): number => m / MICROS_PER_UNIT;
const unixSeconds = (ms: number): number => Math.floor(ms / 1000);
/** USDC value of `size` shares at `price`, in micros. */
export const notional = (size: Micros, price: Micros): Micros => Math.round((size * price) / MICROS_PER_UNIT);

function person(w: SandboxWallet): { name: string; pseudonym: string; bio: string; profileImage: string; profileImageOptimized: string } {
  return { name: w.name, pseudonym: w.pseudonym, bio: w.bio, profileImage: w.profileImage, profileImageOptimized: w.profileImage };
}

export function toTradeFill(f: SandboxFill, profile: SandboxProfile): WireTradeFill {
  const market = f.token.market;
  return {
    proxyWallet: f.wallet.address,
    side: f.side,
    asset: analyticsAsset(profile, f.token),
    conditionId: market.conditionId,
    size: toNumber(f.size),
    price: toNumber(f.price),
    timestamp: unixSeconds(f.timestamp),
    usdcSize: toNumber(notional(f.size, f.price)),
    title: market.question,
    slug: market.slug,
    eventSlug: market.event.slug,
    outcome: f.token.outcome,
    icon: market.icon,
    outcomeIndex: f.token.outcomeIndex,
    ...person(f.wallet),
    transactionHash: f.transactionHash,
  };
}

export function toActivity(f: SandboxFill, profile: SandboxProfile): WireActivity {
  const market = f.token.market;
  return {
    proxyWallet: f.wallet.address,
    timestamp: unixSeconds(f.timestamp),
    conditionId: market.conditionId,
    type: 'TRADE',
    size: toNumber(f.size),
    usdcSize: toNumber(notional(f.size, f.price)),
    transactionHash: f.transactionHash,
    price: toNumber(f.price),
    asset: analyticsAsset(profile, f.token),
    side: f.side,
    outcomeIndex: f.token.outcomeIndex,
    title: market.question,
    slug: market.slug,
    icon: market.icon,
    eventSlug: market.event.slug,
    outcome: f.token.outcome,
    ...person(f.wallet),
  };
}

export function toClosedPosition(p: SandboxClosedPosition, profile: SandboxProfile): WireClosedPosition {
  const market = p.token.market;
  const opposite = p.token.complement();
  const initialValue = notional(p.totalBought, p.avgPrice);
  const percent = initialValue === 0 ? 0 : Math.round((p.realizedPnl / initialValue) * 1e6) / 1e4;
  return {
    proxyWallet: p.wallet.address,
    asset: analyticsAsset(profile, p.token),
    conditionId: market.conditionId,
    size: toNumber(p.totalBought),
    avgPrice: toNumber(p.avgPrice),
    initialValue: toNumber(initialValue),
    currentValue: 0,
    cashPnl: toNumber(p.realizedPnl),
    totalBought: toNumber(p.totalBought),
    realizedPnl: toNumber(p.realizedPnl),
    percentPnl: percent,
    percentRealizedPnl: percent,
    curPrice: toNumber(p.curPrice),
    redeemable: p.redeemable,
    mergeable: false,
    title: market.question,
    slug: market.slug,
    icon: market.icon,
    eventSlug: market.event.slug,
    outcome: p.token.outcome,
    outcomeIndex: p.token.outcomeIndex,
    oppositeOutcome: opposite.outcome,
    oppositeAsset: analyticsAsset(profile, opposite),
    timestamp: unixSeconds(p.timestamp),
    endDate: isoTime(market.endDate),
  };
}

export function toHolder(h: SandboxHolding, profile: SandboxProfile): WireHolder {
  return {
    proxyWallet: h.wallet.address,
    bio: h.wallet.bio,
    asset: analyticsAsset(profile, h.token),
    pseudonym: h.wallet.pseudonym,
    amount: toNumber(h.size),
    displayUsernamePublic: h.wallet.displayUsernamePublic,
    outcomeIndex: h.token.outcomeIndex,
    name: h.wallet.name,
    profileImage: h.wallet.profileImage,
    profileImageOptimized: h.wallet.profileImage,
  };
}
