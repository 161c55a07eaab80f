/**
 * Auth state (spec §4): starts loading with no user, restores the stored user, and keeps the profile
 * fresh. Session errors and 401s end the session and return to '/'.
 */
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { MSG, PROFILE_REFRESH_MS, SESSION_ERROR_LOGOUT_DELAY_MS, sideOf, type Profile } from '@md/shared';
import { hasCapability, useConfig } from './config.tsx';
import { errorMessage } from './errors.ts';
import { recordOf, textOf } from './guards.ts';
import { useMessageText } from './i18n/i18n.tsx';
import { onSessionEnded } from './session-events.ts';
import {
  clearLocalStorage,
  getJwt,
  getStoredUser,
  markUserDetailsUpdated,
  removeSession,
  setJwt,
  setStoredUser,
  type SessionUser,
} from './storage.ts';
import { notify, toastsShown } from './toaster.ts';
import { useTRPCClient } from './trpc.ts';

export interface AuthContextValue {
  user: SessionUser | null;
  profile: Profile | null;
  /** The last profile read failed and none is loaded: screens that need it say Unavailable. */
  profileFailed: boolean;
  loading: boolean;
  isAuthenticated: boolean;
  /** After login or registration: keep the token, load the profile, store the session user. */
  completeSignIn: (jwt: string) => Promise<void>;
  /** Reloads the profile; errors are toasted, session errors sign out after 2 s. */
  refreshProfile: () => Promise<Profile | null>;
  logout: () => void;
}

const AuthContext = createContext<AuthContextValue | null>(null);

const SESSION_ERRORS: readonly string[] = [MSG.sessionExpired, MSG.invalidAuthentication];

/**
 * The profile as the screens read it, from whatever `Success[0]` holds; null without a username
 * (then 'User profile not found'). Fields of the wrong type read as empty rather than crash a screen.
 */
export function profileFrom(value: unknown): Profile | null {
  const raw = recordOf(value);
  const username = textOf(raw?.Username).trim();
  if (!raw || !username) return null;
  const wallet = recordOf(raw.Wallet_Details);
  return {
    Username: username,
    Name: textOf(raw.Name),
    Email: textOf(raw.Email),
    // Spec §3: '0' is left, anything else right ('L' is left too: shared sideOf).
    Side: sideOf(raw.Side) ?? '1',
    Sponsor: textOf(raw.Sponsor) || null,
    Country: textOf(raw.Country),
    Created_On: textOf(raw.Created_On),
    Subscription: Boolean(raw.Subscription),
    package: textOf(raw.package) || null,
    Transaction_Password: Boolean(raw.Transaction_Password),
    TOTP_Enabled: Boolean(raw.TOTP_Enabled),
    Wallet_Details: {
      Wallet_Address: textOf(wallet?.Wallet_Address) || null,
      Network: textOf(wallet?.Network),
    },
  };
}

export const sessionUserOf = (profile: Profile): SessionUser => ({
  username: profile.Username,
  avatar: 'Default',
  name: profile.Name ?? '',
  email: profile.Email ?? '',
});

export function AuthProvider({ children }: { children: ReactNode }) {
  const client = useTRPCClient();
  // Read at the toast, not a dependency: a new language must not load the profile again.
  const currentMessageText = useMessageText();
  const messageText = useRef(currentMessageText);
  messageText.current = currentMessageText;
  const config = useConfig();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [user, setUser] = useState<SessionUser | null>(null);
  const [profile, setProfile] = useState<Profile | null>(null);
  const [profileFailed, setProfileFailed] = useState(false);
  const [loading, setLoading] = useState(true);

  // Restore the stored user once on load, then loading ends.
  useEffect(() => {
    setUser(getJwt() ? getStoredUser() : null);
    setLoading(false);
  }, []);

  const endSession = useCallback(() => {
    setUser(null);
    setProfile(null);
    setProfileFailed(false);
    queryClient.clear();
    navigate('/', { replace: true });
  }, [navigate, queryClient]);

  // A 401 anywhere (sessionLink) has already removed the token; follow it to '/'.
  useEffect(() => onSessionEnded(endSession), [endSession]);

  const fetchProfile = useCallback(async (): Promise<Profile> => {
    const response: unknown = await client['user.view_profile'].query({});
    const list = recordOf(response)?.Success;
    const loaded = profileFrom(Array.isArray(list) ? list[0] : undefined);
    if (!loaded) throw new Error(MSG.profileNotFound);
    return loaded;
  }, [client]);

  const applyProfile = useCallback((loaded: Profile) => {
    const sessionUser = sessionUserOf(loaded);
    setStoredUser(sessionUser);
    markUserDetailsUpdated();
    setUser(sessionUser);
    setProfile(loaded);
    setProfileFailed(false);
  }, []);

  const refreshProfile = useCallback(async () => {
    if (!getJwt()) {
      console.warn(MSG.sessionExpiredLog);
      return null;
    }
    try {
      const loaded = await fetchProfile();
      // The session may have ended while the profile was on its way (a 401 elsewhere, a logout):
      // a late answer must not store the user again.
      if (!getJwt()) return null;
      applyProfile(loaded);
      return loaded;
    } catch (error) {
      const message = errorMessage(error, MSG.failedGetProfile);
      notify.error(messageText.current(message));
      setProfileFailed(true);
      if (SESSION_ERRORS.includes(message)) {
        // Counted from the toast on screen: its UI loads with the first toast, late on a busy phone.
        void toastsShown().then(() =>
          setTimeout(() => {
            clearLocalStorage();
            endSession();
          }, SESSION_ERROR_LOGOUT_DELAY_MS),
        );
      }
      return null;
    }
  }, [applyProfile, endSession, fetchProfile]);

  const completeSignIn = useCallback(
    async (jwt: string) => {
      setJwt(jwt);
      try {
        applyProfile(await fetchProfile());
      } catch (error) {
        removeSession();
        throw error;
      }
    },
    [applyProfile, fetchProfile],
  );

  const logout = useCallback(() => {
    // With the server's `sessions` capability the token is also ended at the server (its body field
    // carries it: storage is cleared before the call leaves); the spec's logout does not wait for it.
    const jwt = getJwt();
    if (jwt && hasCapability(config, 'sessions'))
      void client['user.logout'].mutate({ jwt }).catch(() => undefined);
    clearLocalStorage();
    endSession();
  }, [endSession, client, config]);

  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      profile,
      profileFailed,
      loading,
      isAuthenticated: Boolean(user && getJwt()),
      completeSignIn,
      refreshProfile,
      logout,
    }),
    [user, profile, profileFailed, loading, completeSignIn, refreshProfile, logout],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) throw new Error('useAuth must be used within an AuthProvider');
  return context;
}

/**
 * Profile refresh rules (spec §4): on dashboard mount, on every path change, and every
 * hour; the hourly timer also covers a stored update older than an hour on a page left open.
 */
export function useProfileRefresh() {
  const { refreshProfile } = useAuth();
  const { pathname } = useLocation();

  useEffect(() => {
    void refreshProfile();
  }, [pathname, refreshProfile]);

  useEffect(() => {
    const timer = setInterval(() => void refreshProfile(), PROFILE_REFRESH_MS);
    return () => clearInterval(timer);
  }, [refreshProfile]);
}
