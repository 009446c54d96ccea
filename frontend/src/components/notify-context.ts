import { createContext } from 'react';

export type NotifySeverity = 'success' | 'error' | 'info' | 'warning';
export type Notify = (text: string, severity?: NotifySeverity) => void;

export const NotifyContext = createContext<Notify | null>(null);

/** Takes a message away (shown or waiting) once what it said no longer holds. */
export type DismissNotice = (text: string) => void;

export const DismissNoticeContext = createContext<DismissNotice>(() => undefined);
