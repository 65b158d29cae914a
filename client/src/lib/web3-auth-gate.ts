/**
 * Spec section 1: the web3 login provider (Web3Auth) is off unless the page address carries enableWeb3Auth=true.
 * While off, any window.open to an address of that provider is blocked (null), and the basic social login is
 * used instead. Installed before the app starts, so nothing loaded later can open such a window.
 */
const WEB3_AUTH_ADDRESS = /web3auth|openlogin/i;

export function web3AuthEnabled(search: string = window.location.search): boolean {
  return new URLSearchParams(search).get("enableWeb3Auth") === "true";
}

export function isWeb3AuthAddress(url: string | URL | undefined): boolean {
  return url !== undefined && WEB3_AUTH_ADDRESS.test(String(url));
}

export function installWeb3PopupGuard(target: Window = window) {
  if (web3AuthEnabled(target.location.search)) return;
  const open = target.open.bind(target);
  target.open = (url?: string | URL, name?: string, features?: string) => {
    if (isWeb3AuthAddress(url)) {
      console.warn("Web3 login is off (add enableWeb3Auth=true to the address): its window was blocked.");
      return null;
    }
    return open(url, name, features);
  };
}
