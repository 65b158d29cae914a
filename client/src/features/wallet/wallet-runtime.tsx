import type { ChainConfigResponse } from "@common/chain";
import { directionOf } from "@common/locale-direction";
import { useQuery } from "@tanstack/react-query";
import { ArrowLeftRight, CircleCheck, CirclePlus, Copy, LogOut, Wallet as WalletIcon } from "lucide-react";
import * as React from "react";
import {
  type Connector,
  useConnect,
  useConnection,
  useConnectors,
  useDisconnect,
  WagmiProvider,
} from "wagmi";
import { Button } from "@/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/components/ui/dropdown-menu";
import { toast } from "@/hooks/use-toast";
import { type SiteT, useSiteT } from "@/i18n/site-words";
import { groupedAmount, type NetworkWords, networkNameIn } from "@/lib/network-name";
import { BALANCE_REFRESH_MS, getBalance } from "./api/get-balance";
import { chainConfigQueryOptions } from "./api/get-chain-config";
import { preferredConnector, sharedWalletConfig } from "./wagmi-config";
import type { WalletControlWords } from "./wallet-control";
import {
  describeWalletError,
  UNRECOGNIZED_CHAIN,
  type WalletErrorWords,
  walletErrorCode,
} from "./wallet-errors";
import { clearWalletKeys, displayBalance, rememberBalance } from "./wallet-storage";

type Eip1193 = { request(args: { method: string; params?: unknown }): Promise<unknown> };

/** Loaded on first use only: wagmi and viem stay out of the entry chunk. */
export default function WalletRuntime({
  connectNow,
  words,
}: {
  connectNow: boolean;
  words: WalletControlWords;
}) {
  const { t, locale } = useSiteT();
  const chainConfig = useQuery(chainConfigQueryOptions());
  const config = React.useMemo(
    () => (chainConfig.data ? sharedWalletConfig(chainConfig.data) : null),
    [chainConfig.data],
  );
  if (chainConfig.isError) {
    return (
      <Button variant="outline" size="sm" disabled title={t("site.wallet.unavailableReason")}>
        {t("site.wallet.unavailable")}
      </Button>
    );
  }
  if (!config || !chainConfig.data)
    return (
      <Button variant="outline" size="sm" disabled>
        {words.connecting}
      </Button>
    );
  return (
    // Opened by a click: nothing reconnects by itself (the click connects). Opened because another flow of this page
    // just connected the shared config (connectNow false): mounting with reconnectOnMount off would wipe that
    // connection (wagmi's hydrate), so it is taken over by reconnecting to it, which asks the wallet nothing.
    <WagmiProvider config={config} reconnectOnMount={!connectNow}>
      <WalletMenu
        chainConfig={chainConfig.data}
        connectNow={connectNow}
        words={words}
        t={t}
        english={locale === "en"}
        dir={directionOf(locale)}
      />
    </WagmiProvider>
  );
}

/**
 * The wallet's errors in the shell's words; in English the default ones, which show another error as the wallet
 * said it (in another language that is "the wallet did not complete the request", never the library's English).
 */
const errorWords = (t: SiteT, english: boolean): WalletErrorWords | undefined =>
  english
    ? undefined
    : {
        noWallet: t("site.wallet.error.noWallet"),
        rejected: t("site.wallet.error.rejected"),
        unknownNetwork: t("site.wallet.error.unknownNetwork"),
        incomplete: t("site.wallet.error.incomplete"),
      };

/** The network's name in the shell's words (the local development chain, a network without a name). */
const networkWords = (t: SiteT): NetworkWords => ({
  localChain: t("site.wallet.localChain"),
  unnamedNetwork: (chainId) => t("site.wallet.unnamedNetwork", { chainId }),
});

function WalletMenu({
  chainConfig,
  connectNow,
  words,
  t,
  english,
  dir,
}: {
  chainConfig: ChainConfigResponse;
  connectNow: boolean;
  words: WalletControlWords;
  t: SiteT;
  english: boolean;
  /** The reader's direction: Radix lays a menu out left to right unless told (Arabic reads right to left). */
  dir: "ltr" | "rtl";
}) {
  const connection = useConnection();
  const connectors = useConnectors();
  const { connectAsync, isPending } = useConnect();
  const { disconnectAsync } = useDisconnect();
  const [open, setOpen] = React.useState(false);
  const started = React.useRef(false);

  const connect = React.useCallback(
    async (connector?: Connector) => {
      const chosen = connector ?? preferredConnector(connectors);
      if (!chosen) {
        toast({
          variant: "destructive",
          title: t("site.wallet.connectFailed"),
          description: t("site.wallet.error.noWallet"),
        });
        return;
      }
      try {
        await connectAsync({ connector: chosen });
      } catch (error) {
        toast({
          variant: "destructive",
          title: t("site.wallet.connectFailed"),
          description: describeWalletError(error, errorWords(t, english)),
        });
      }
    },
    [connectAsync, connectors, t, english],
  );

  React.useEffect(() => {
    if (connectNow && !started.current && connection.status === "disconnected") {
      started.current = true;
      void connect();
    }
  }, [connectNow, connect, connection.status]);

  const address = connection.address;
  const balance = useQuery({
    queryKey: ["/api/balance", address],
    queryFn: ({ signal }) => getBalance(address!, signal),
    enabled: Boolean(address),
    refetchInterval: BALANCE_REFRESH_MS,
    staleTime: 0,
  });
  React.useEffect(() => {
    if (balance.data) rememberBalance(balance.data.balance);
  }, [balance.data]);
  React.useEffect(() => {
    // Spec section 8: balance failures are logged and retried on the next cycle.
    if (balance.error) console.warn("Balance refresh failed:", balance.error.message);
  }, [balance.error]);

  const provider = async (): Promise<Eip1193> => (await connection.connector?.getProvider()) as Eip1193;

  const switchToTokenChain = async () => {
    const p = await provider();
    const chainId = `0x${chainConfig.chainId.toString(16)}`;
    try {
      await p.request({ method: "wallet_switchEthereumChain", params: [{ chainId }] });
    } catch (error) {
      if (walletErrorCode(error) !== UNRECOGNIZED_CHAIN) throw error;
      await p.request({
        method: "wallet_addEthereumChain",
        params: [
          {
            chainId,
            chainName: chainConfig.chainName,
            nativeCurrency: chainConfig.nativeCurrency,
            rpcUrls: chainConfig.rpcUrl ? [chainConfig.rpcUrl] : [],
            blockExplorerUrls: chainConfig.blockExplorerUrl ? [chainConfig.blockExplorerUrl] : undefined,
          },
        ],
      });
    }
  };

  const run = async (title: string, action: () => Promise<unknown>, success?: string) => {
    try {
      await action();
      if (success) toast({ title: success });
    } catch (error) {
      toast({
        variant: "destructive",
        title,
        description: describeWalletError(error, errorWords(t, english)),
      });
    }
  };

  const status = connection.status;
  if (status !== "connected" || !address) {
    const label =
      status === "connecting"
        ? words.connecting
        : status === "reconnecting"
          ? t("site.wallet.reconnecting")
          : words.connect;
    // Like the idle control: on phones the top bar has room for the icon only; the label stays for assistive technology.
    return (
      <Button
        variant="outline"
        size="sm"
        data-testid="wallet-connect"
        data-status={status}
        disabled={isPending || status === "connecting" || status === "reconnecting"}
        onClick={() => void connect()}
        aria-label={label}
      >
        <WalletIcon aria-hidden="true" />
        <span className="hidden sm:inline">{label}</span>
      </Button>
    );
  }

  const shown = displayBalance(balance.data?.balance ?? null, balance.isFetching);
  const wrongChain = connection.chainId !== chainConfig.chainId;
  const networkName = (chainId: number) => networkNameIn(networkWords(t), chainId, chainConfig);
  const tokenNetwork = networkName(chainConfig.chainId);
  const short = `${address.slice(0, 6)}…${address.slice(-4)}`;
  return (
    <div data-testid="wallet-control" data-status={status}>
      {/* Not modal: the page stays readable (a modal menu hides the rest with aria-hidden, focusable parts too). */}
      <DropdownMenu open={open} onOpenChange={setOpen} modal={false} dir={dir}>
        <DropdownMenuTrigger asChild>
          <Button variant="outline" size="sm" aria-label={t("site.wallet.button", { address: short })}>
            <WalletIcon aria-hidden="true" />
            {/* Like "Connect Wallet": the icon alone on a phone's top bar (the address ran off its edge at 390 px). */}
            <span className="hidden font-mono sm:inline">{short}</span>
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end" className="w-72" aria-label={t("site.wallet.menu")}>
          <DropdownMenuLabel className="flex flex-col gap-1">
            <span className="flex items-center gap-1.5 text-muted-foreground text-xs">
              <CircleCheck aria-hidden="true" className="size-3.5 text-success" />{" "}
              {t("site.wallet.connected")}
            </span>
            <span className="break-all font-mono text-xs" dir="ltr" data-testid="wallet-address">
              {address}
            </span>
          </DropdownMenuLabel>
          <DropdownMenuLabel className="flex flex-col gap-0.5 pt-0">
            <span data-testid="wallet-network">
              {t("site.wallet.network", {
                network: networkName(connection.chainId ?? chainConfig.chainId),
              })}
            </span>
            <span data-testid="wallet-balance" className="font-semibold tabular-nums">
              {t("site.wallet.balance", {
                amount: shown ? groupedAmount(shown) : "…",
                symbol: chainConfig.token.symbol,
              })}
            </span>
            {wrongChain && (
              <span className="text-destructive-emphasis">
                {t("site.wallet.wrongNetwork", {
                  network: networkName(connection.chainId ?? 0),
                  symbol: chainConfig.token.symbol,
                  tokenNetwork,
                })}
              </span>
            )}
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuItem
            onSelect={() =>
              navigator.clipboard.writeText(address).then(
                () => toast({ title: t("site.wallet.copied") }),
                () => toast({ variant: "destructive", title: t("site.wallet.copyFailed") }),
              )
            }
          >
            <Copy aria-hidden="true" /> {t("site.wallet.copyAddress")}
          </DropdownMenuItem>
          {wrongChain && (
            <DropdownMenuItem
              onSelect={(event) => {
                // Stays open: the network line above changes once the wallet has switched.
                event.preventDefault();
                void run(t("site.wallet.switchFailed"), switchToTokenChain);
              }}
            >
              <ArrowLeftRight aria-hidden="true" /> {t("site.wallet.switchNetwork")}
            </DropdownMenuItem>
          )}
          <DropdownMenuItem
            onSelect={() =>
              void run(
                t("site.wallet.watchFailed"),
                async () =>
                  (await provider()).request({
                    method: "wallet_watchAsset",
                    params: {
                      type: "ERC20",
                      options: {
                        address: chainConfig.token.address,
                        symbol: chainConfig.token.symbol,
                        decimals: chainConfig.token.decimals,
                      },
                    },
                  }),
                t("site.wallet.tokenAdded", { symbol: chainConfig.token.symbol }),
              )
            }
          >
            <CirclePlus aria-hidden="true" />{" "}
            {t("site.wallet.addToken", { symbol: chainConfig.token.symbol })}
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuItem
            variant="destructive"
            onSelect={() =>
              void run(t("site.wallet.disconnectFailed"), async () => {
                await disconnectAsync();
                clearWalletKeys(address);
              })
            }
          >
            <LogOut aria-hidden="true" /> {t("site.wallet.disconnect")}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </div>
  );
}
