import type { LoginRequest, RegisterRequest } from "@common/auth.ts";
import type { SignInResult, TwoFactorRequired } from "@common/two-factor.ts";
import { type UseMutationResult, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import * as React from "react";
import { toast } from "@/hooks/use-toast";
import { getUserQueryOptions, type SessionUser, USER_QUERY_KEY } from "./api/get-user";
import { login } from "./api/login";
import { logout } from "./api/logout";
import { register } from "./api/register";
import { getSiweNonce, verifySiwe, type WalletSigner } from "./api/siwe";
import { authWords, type SignedOutWords } from "./auth-words";

interface AuthContextValue {
  user: SessionUser | null;
  isLoading: boolean;
  loginMutation: UseMutationResult<SignInResult, Error, LoginRequest>;
  /** Sign-In with Ethereum: the signer comes from the wallet feature (lazy), the rest is a normal sign-in. */
  walletLoginMutation: UseMutationResult<SignInResult, Error, WalletSigner>;
  /** A sign-in whose first factor was right and that waits for the second (decision 019); null otherwise. */
  pendingSignIn: TwoFactorRequired | null;
  setPendingSignIn: (pending: TwoFactorRequired | null) => void;
  /** The code step: an authenticator code or a recovery code. */
  secondFactorMutation: UseMutationResult<SessionUser, Error, string>;
  /** A passkey: the second factor of the pending sign-in, or a password-less sign-in. */
  passkeyMutation: UseMutationResult<SessionUser, Error, void>;
  registerMutation: UseMutationResult<SessionUser, Error, RegisterRequest>;
  /** Signs out; the toast in the words given (the site menu's, in the shell's language), else the provider's. */
  logoutMutation: UseMutationResult<void, Error, SignedOutWords | undefined>;
}

const AuthContext = React.createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: React.ReactNode }) {
  const queryClient = useQueryClient();
  // A 401 answers null; any other failure (server down) also means signed out (spec section 4).
  const { data, isLoading } = useQuery(getUserQueryOptions());

  const signedIn = React.useCallback(
    (user: SessionUser) => {
      // Anything cached belonged to the previous visitor.
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== USER_QUERY_KEY[0] });
      queryClient.setQueryData(USER_QUERY_KEY, user);
    },
    [queryClient],
  );

  const [pendingSignIn, setPendingSignIn] = React.useState<TwoFactorRequired | null>(null);

  const completed = {
    onSuccess: (user: SessionUser) => {
      setPendingSignIn(null);
      signedIn(user);
      const words = authWords();
      toast({ title: words.signedIn, description: words.signedInText });
    },
    onError: (error: Error) => {
      const words = authWords();
      toast({ title: words.signInFailed, description: words.describe(error), variant: "destructive" });
    },
  };
  const loginHandlers = {
    ...completed,
    onSuccess: (result: SignInResult) => {
      if ("twoFactorRequired" in result) setPendingSignIn(result);
      else completed.onSuccess(result);
    },
  };

  const loginMutation = useMutation({ mutationFn: login, ...loginHandlers });

  const walletLoginMutation = useMutation({
    mutationFn: async (sign: WalletSigner) => verifySiwe(await sign(getSiweNonce)),
    ...loginHandlers,
  });

  // Loaded when used: the second step is rare, and this provider is part of the entry chunk.
  const secondFactorMutation = useMutation({
    mutationFn: async (code: string) => (await import("./api/second-factor")).submitSecondFactor(code),
    ...completed,
  });
  const passkeyMutation = useMutation({
    mutationFn: async () => (await import("./api/second-factor")).signInWithPasskey(),
    ...completed,
  });

  const registerMutation = useMutation({
    mutationFn: register,
    onSuccess: (user) => {
      signedIn(user);
      const words = authWords();
      toast({ title: words.registered, description: words.registeredText });
    },
    onError: (error) => {
      const words = authWords();
      toast({ title: words.registerFailed, description: words.describe(error), variant: "destructive" });
    },
  });

  const logoutMutation = useMutation({
    mutationFn: (_words: SignedOutWords | undefined) => logout(),
    onSuccess: (_, given) => {
      queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== USER_QUERY_KEY[0] });
      queryClient.setQueryData(USER_QUERY_KEY, null);
      const words = given ?? authWords();
      toast({ title: words.signedOut, description: words.signedOutText });
    },
  });

  const value = React.useMemo(
    () => ({
      user: data ?? null,
      isLoading,
      loginMutation,
      walletLoginMutation,
      pendingSignIn,
      setPendingSignIn,
      secondFactorMutation,
      passkeyMutation,
      registerMutation,
      logoutMutation,
    }),
    [
      data,
      isLoading,
      loginMutation,
      walletLoginMutation,
      pendingSignIn,
      secondFactorMutation,
      passkeyMutation,
      registerMutation,
      logoutMutation,
    ],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const context = React.useContext(AuthContext);
  if (!context) throw new Error("useAuth must be used within an AuthProvider");
  return context;
}
