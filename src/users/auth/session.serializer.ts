import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { PassportSerializer } from '@nestjs/passport';
import type { AuthenticatedUser } from '../../common/decorators/current-user.decorator';
import { UsersService } from '../users.service';

type Done<T> = (error: unknown, value?: T | false) => void;

/**
 * Only the user id goes into the session row (sess.passport.user, indexed for ending a user's
 * sessions); every request reloads the user, so a deleted account is logged out at once.
 */
@Injectable()
export class SessionSerializer extends PassportSerializer implements OnModuleDestroy {
  /**
   * passport is a process-wide singleton that keeps every serializer ever registered. Once this
   * app instance is closed (tests, in-process restarts) it hands over with passport's 'pass'.
   */
  private closed = false;

  constructor(private readonly users: UsersService) {
    super();
  }

  onModuleDestroy(): void {
    this.closed = true;
  }

  serializeUser(user: AuthenticatedUser, done: Done<string>): void {
    if (this.closed) return done('pass');
    done(null, user.id);
  }

  deserializeUser(id: unknown, done: Done<AuthenticatedUser>): void {
    if (this.closed) return done('pass');
    if (typeof id !== 'string') return done(null, false);
    this.users.findById(id).then(
      (user) => done(null, user ?? false),
      (error: unknown) => done(error),
    );
  }
}
