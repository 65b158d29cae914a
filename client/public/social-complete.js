// The basic login's window, back from the provider (server: modules/social-auth/popup-complete-page.ts): tells the
// page that opened it over a same-origin channel, then closes. The message only says "look again": that page asks
// the server who signed in, so a forged one is harmless.
const provider = new URLSearchParams(window.location.search).get("provider");
if (provider && /^[a-z]{1,20}$/.test(provider) && typeof BroadcastChannel !== "undefined") {
  const channel = new BroadcastChannel("cpxtb-social-login");
  channel.postMessage({ provider });
  channel.close();
}
window.close();
