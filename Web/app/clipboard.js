// The clipboard in the viewer (DESIGN.md#clipboard): "Paste to computer" in the toolbar (and the keyboard panel,
// through `view.paste`) reads this device's clipboard inside the tap and sends it; a bar "Copied on the
// computer: …" shows each copy the host offers (a text preview or the image's thumbnail) with a Copy button
// that writes this device's clipboard inside its own tap. The rules are in core/clipboard.js.
import { describeOffer, PASTE_ASKING, pasteMessage, pasteRefusal, readDeviceClipboard, writeDeviceClipboard }
  from '../core/clipboard.js';

const el = (tag, cls, text) => Object.assign(document.createElement(tag), cls ? { className: cls } : {},
  text !== undefined ? { textContent: text } : {});

/** Adds the Paste button and the offer bar to the viewer; `notify(text)` shows a short message (the toast). */
export function attachClipboard(view, { client, notify }) {
  const paste = ({ ask = false } = {}) => {
    // Read inside the tap: iOS refuses the clipboard to a page outside a user gesture.
    readDeviceClipboard().then((content) => {
      if (content.error) return notify(content.error);
      const { message, error } = pasteMessage(content, { ask });
      if (error) return notify(error);
      client.send(message);
      if (ask) showAsk(PASTE_ASKING, false);
      return undefined;
    });
  };
  view.paste = paste;
  // A picture, not a word, like full screen's arrow: the toolbar keeps its rows on an iPad held upright.
  view.tools.add({ name: 'paste', label: 'Paste to computer', text: '📋', onClick: () => paste() });

  const bar = el('div', 'clipboard-offer');
  bar.setAttribute('role', 'status');
  bar.hidden = true;
  const label = el('span', 'clipboard-label', 'Copied on the computer:');
  const preview = el('span', 'clipboard-preview');
  const thumb = Object.assign(el('img', 'clipboard-thumb'), { alt: '' });
  const copy = el('button', 'clipboard-copy', 'Copy');
  copy.type = 'button';
  const dismiss = el('button', 'clipboard-dismiss', '×');
  dismiss.type = 'button';
  dismiss.setAttribute('aria-label', 'Dismiss');
  // The words in a column beside the thumbnail, so a phone's narrow bar still shows the preview.
  const words = el('span', 'clipboard-words');
  words.append(label, preview);
  bar.append(thumb, words, copy, dismiss);
  // The bar sits on the picture: its taps are the bar's, never touches on the computer's screen.
  for (const type of ['pointerdown', 'pointermove', 'pointerup', 'pointercancel', 'wheel']) {
    bar.addEventListener(type, (event) => event.stopPropagation());
  }
  view.stage.append(bar);

  let offered = null;
  const hide = () => {
    bar.hidden = true;
    offered = null;  // nothing of the computer's clipboard is kept once the bar goes
    preview.textContent = '';
    thumb.removeAttribute('src');
  };
  client.addEventListener('clipboardOffer', ({ detail }) => {
    hide();
    offered = describeOffer(detail);
    bar.dataset.kind = offered.kind;
    thumb.hidden = offered.kind !== 'image' || Boolean(offered.tooLarge);
    copy.hidden = Boolean(offered.tooLarge);
    if (offered.tooLarge) preview.textContent = offered.tooLarge;
    else if (offered.kind === 'text') preview.textContent = `“${offered.preview}”`;
    else {
      thumb.src = offered.url;
      preview.textContent = `${offered.width} × ${offered.height}`;
    }
    bar.hidden = false;
  });
  copy.addEventListener('click', () => {
    if (!offered) return;
    const content = offered;
    writeDeviceClipboard(content).then((error) => {
      if (error) return notify(error);
      return hide();  // the bar going is the answer: the toast is for what went wrong
    });
  });
  dismiss.addEventListener('click', hide);

  // A paste refused because this device may not paste: what to run on the computer and, as the Screen tab,
  // "Ask the computer" (a paste with ask: the computer's user answers; "Asked the computer…" until then).
  const askBar = el('div', 'clipboard-offer clipboard-ask');
  askBar.setAttribute('role', 'status');
  askBar.hidden = true;
  askBar.style.top = '64px'; // below the offer bar, which may show at the same time
  const askTitle = el('span', 'clipboard-label');
  const askBody = el('span', 'clipboard-ask-body');
  const askWords = el('span', 'clipboard-words');
  askWords.append(askTitle, askBody);
  const askButton = el('button', 'clipboard-copy', 'Ask the computer');
  askButton.type = 'button';
  const askDismiss = el('button', 'clipboard-dismiss', '×');
  askDismiss.type = 'button';
  askDismiss.setAttribute('aria-label', 'Dismiss');
  askBar.append(askWords, askButton, askDismiss);
  for (const type of ['pointerdown', 'pointermove', 'pointerup', 'pointercancel', 'wheel']) {
    askBar.addEventListener(type, (event) => event.stopPropagation());
  }
  view.stage.append(askBar);
  const showAsk = ({ title, body }, mayAsk) => {
    askTitle.textContent = title;
    askBody.textContent = body;
    askButton.hidden = !mayAsk;
    askBar.hidden = false;
  };
  const hideAsk = () => { askBar.hidden = true; };
  askButton.addEventListener('click', () => paste({ ask: true }));
  askDismiss.addEventListener('click', hideAsk);

  client.addEventListener('clipboardResult', ({ detail }) => {
    if (detail.ok) return hideAsk();
    const refusal = pasteRefusal(detail);
    if (refusal) return showAsk(refusal, refusal.mayAsk);
    hideAsk();
    return notify(detail.reason);
  });

  const showWhileViewing = () => {
    const viewing = ['viewing', 'starting'].includes(view.root.dataset.state);
    view.tools.show('paste', viewing && !view.core.session.started?.viewOnly);
    if (!viewing) {
      hide();
      hideAsk();
    }
  };
  new MutationObserver(showWhileViewing).observe(view.root, { attributes: true, attributeFilter: ['data-state'] });
  showWhileViewing();
}
