import { createContext } from 'react';

export type NotifySeverity = 'success' | 'error' | 'info' | 'warning';
export type Notify = (text: string, severity?: NotifySeverity) => void;

export const NotifyContext = createContext<Notify | null>(null);
