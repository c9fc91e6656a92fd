import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { queryClient } from '../api/query-client';
import { TOAST_Z_INDEX, theme } from './theme';
import { TOAST_MAX_HEIGHT, keepToastsBesideDialogs } from './toasts-beside-dialogs';
import { letPointerThroughToasts } from './toasts-see-through';

/** Mantine (theme, toasts top-right) and TanStack Query around the app. */
export function Providers({ children }: { children: ReactNode }) {
  useEffect(keepToastsBesideDialogs, []);
  useEffect(letPointerThroughToasts, []);
  return (
    <MantineProvider theme={theme} defaultColorScheme="light">
      <QueryClientProvider client={queryClient}>
        <Notifications position="top-right" limit={5} zIndex={TOAST_Z_INDEX} notificationMaxHeight={TOAST_MAX_HEIGHT} />
        {children}
      </QueryClientProvider>
    </MantineProvider>
  );
}
