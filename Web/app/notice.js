// What to do when the browser will not give us a secure connection (DESIGN.md#transport): instead of failing silently.

function setupAddress() {
  return `http://${location.hostname}:${location.port || 52801}/`;
}

export function explainInsecure(el) {
  el.innerHTML = `<h2>Open TouchDeck over HTTPS</h2>
    <p>This page was opened without a secure connection, and browsers only allow the encryption TouchDeck
    needs on secure pages.</p>
    <ol><li>Open the setup page <a href="${setupAddress()}">${setupAddress()}</a> and install this
    computer's certificate (on iPad and iPhone: the profile, then trust it in Settings → General → About →
    Certificate Trust Settings).</li>
    <li>Then open <b>https://${location.hostname}:${location.port || 52801}/</b> — use the computer's
    <code>.local</code> name shown on the setup page.</li></ol>`;
  el.hidden = false;
}

export function explainUnreachable(el) {
  el.innerHTML = `<h2>Cannot reach the computer</h2>
    <p>Is <code>touchdeck serve</code> running? If it is, this browser may not trust the computer's
    certificate for live connections (iPad Safari refuses a certificate that was only clicked through).</p>
    <p>Install the certificate from <a href="${setupAddress()}">the setup page</a>, and use the
    <code>.local</code> address it shows. TouchDeck keeps trying in the background.</p>`;
  el.hidden = false;
}

export function hideNotice(el) { el.hidden = true; }
