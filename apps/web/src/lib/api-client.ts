import axios, { type AxiosError, type InternalAxiosRequestConfig } from 'axios';
import { showAlert } from './alert-store';
import { sessionExpiredError, toApiError } from './api-error';
import { clearSession, endExpiredSession } from './session';

declare module 'axios' {
  interface AxiosRequestConfig {
    /** A 401 ends the session quietly, without the expired alert (used by the session probe). */
    quietUnauthorized?: boolean;
  }
}

export const API_PREFIX = '/api/v1';
const SESSION_CALLS = [`${API_PREFIX}/iam/login`, `${API_PREFIX}/iam/logout`];
const SERVER_ERROR_STATUSES = new Set([500, 502, 503]);

const isSameOrigin = (url: string | undefined): boolean => {
  try {
    return new URL(url ?? '', window.location.href).origin === window.location.origin;
  } catch {
    return false;
  }
};

/** HTTP client of spec 7: same origin, JSON, repeated-key arrays, XSRF header, no timeout. */
export const api = axios.create({
  baseURL: '',
  headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
  paramsSerializer: { indexes: null },
  xsrfCookieName: 'XSRF-TOKEN',
  xsrfHeaderName: 'X-XSRF-TOKEN',
  // Only ever echo the token to our own origin.
  withXSRFToken: (config: InternalAxiosRequestConfig) => isSameOrigin(config.url),
  timeout: 0,
});

const isSessionCall = (config: InternalAxiosRequestConfig | undefined): boolean => {
  const path = (config?.url ?? '').split('?')[0] ?? '';
  return SESSION_CALLS.some((call) => path === call || path.endsWith(call));
};

/** Spec 8, transport behaviour: expired session, server errors, one ApiError for the rest. */
export function onResponseError(error: unknown): Promise<never> {
  if (!axios.isAxiosError(error) || !error.response) return Promise.reject(toApiError(error));
  const { status, data } = error.response;
  const config = (error as AxiosError).config;

  if (status === 401 && !isSessionCall(config)) {
    if (config?.quietUnauthorized) {
      clearSession();
    } else {
      showAlert({
        id: 'session-expired',
        titleKey: 'alerts.session_expired_title',
        messageKey: 'alerts.session_expired_message',
        confirmKey: 'alerts.ok',
        onConfirm: endExpiredSession,
      });
    }
    return Promise.reject(sessionExpiredError(data));
  }

  if (SERVER_ERROR_STATUSES.has(status)) {
    showAlert({
      id: 'server-error',
      titleKey: 'alerts.server_error_title',
      messageKey: 'alerts.server_error_message',
      confirmKey: 'alerts.ok',
    });
    return Promise.reject(toApiError(error, { alerted: true }));
  }

  return Promise.reject(toApiError(error));
}

api.interceptors.response.use(undefined, onResponseError);
