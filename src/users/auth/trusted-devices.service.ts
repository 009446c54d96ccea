import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { parse } from 'cookie';
import type { Request, Response } from 'express';
import { APP_CONFIG, AppConfig } from '../../config/app-config';

export const TRUSTED_DEVICE_COOKIE = 'dm.device';
/** Only the login calls read it, so no other request carries it. */
const COOKIE_PATH = '/api/users/login';
const COOKIE_MAX_AGE_MS = 365 * 24 * 60 * 60 * 1000;
/** Accounts one browser vouches for (a shared computer); the oldest drops out first. */
const MAX_ACCOUNTS = 5;

/** A browser that has completed a login before, and for which accounts. */
export interface TrustedDevice {
  deviceId: string;
  userIds: string[];
  /** When each account's login through this browser was last completed (ms since 1970). */
  since?: Record<string, number>;
}

/**
 * Whether the browser still vouches for the account: it logged in to it, and not before the
 * account's credentials were last all ended (a password reset ends every browser's standing).
 */
export function deviceVouchesFor(
  device: TrustedDevice | undefined,
  userId: string,
  credentialsEndedAt: Date | null,
): device is TrustedDevice {
  if (!device?.userIds.includes(userId)) return false;
  return !credentialsEndedAt || (device.since?.[userId] ?? 0) > credentialsEndedAt.getTime();
}

/**
 * The trusted-device cookie: signed with SESSION_SECRET, set after a complete login. A browser
 * that proved an account's password before keeps its own small failure allowance for that
 * account, so strangers' failures (on the account, or from the same address) cannot lock it out.
 */
@Injectable()
export class TrustedDevicesService {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  read(request: Request): TrustedDevice | undefined {
    const value = parse(request.headers.cookie ?? '')[TRUSTED_DEVICE_COOKIE];
    const [payload, signature] = value?.split('.') ?? [];
    if (!payload || !signature) return undefined;
    const expected = Buffer.from(this.sign(payload), 'base64url');
    const given = Buffer.from(signature, 'base64url');
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    try {
      const device = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as TrustedDevice;
      return typeof device.deviceId === 'string' && Array.isArray(device.userIds) ? device : undefined;
    } catch {
      return undefined;
    }
  }

  /** Adds the account to the browser's cookie (creating the device on its first login). */
  remember(request: Request, response: Response, userId: string): void {
    const known = this.read(request);
    const userIds = [...(known?.userIds ?? []).filter((id) => id !== userId), userId].slice(-MAX_ACCOUNTS);
    const since = Object.fromEntries(userIds.map((id) => [id, known?.since?.[id] ?? 0]));
    since[userId] = Date.now();
    const device: TrustedDevice = {
      deviceId: known?.deviceId ?? randomBytes(16).toString('base64url'),
      userIds,
      since,
    };
    const payload = Buffer.from(JSON.stringify(device)).toString('base64url');
    response.cookie(TRUSTED_DEVICE_COOKIE, `${payload}.${this.sign(payload)}`, {
      path: COOKIE_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: this.config.appOrigin.startsWith('https://'),
      maxAge: COOKIE_MAX_AGE_MS,
    });
  }

  private sign(payload: string): string {
    return createHmac('sha256', this.config.sessionSecret)
      .update(`trusted-device:${payload}`)
      .digest('base64url');
  }
}
