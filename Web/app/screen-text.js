// What the Screen tab says in each state: one place for the words, so they stay consistent.
import { describeError } from '../core/errors.js';

const quote = (name) => (/^[\w.-]+$/.test(name) ? name : `"${name.replace(/(["\\$`])/g, '\\$1')}"`);

/** {title, body, command?} for a denial or a stop, by the host's reason. */
export function explain(reason, { deviceName = 'this device', viewer = null, error = null, asked = null,
  detail = null } = {}) {
  switch (reason) {
    case 'failed':
      return { title: error?.request === 'listDisplays' ? 'The computer could not list its monitors'
        : 'The computer could not start the view', body: describeError(error) };
    case 'notAllowed': {
      const command = `touchdeck devices allow-screen ${quote(deviceName)} on`;
      if (asked === 'denied') {
        return { title: 'The computer said no', body: 'Someone at the computer chose Deny. Ask again, or allow this device there with:', command };
      }
      if (asked === 'timedOut') {
        return { title: 'Nobody answered on the computer', body: 'The question went unanswered for a minute. Ask again, or on the computer run:', command };
      }
      if (asked === 'unavailable') {
        return { title: 'This device may not view the screen',
          body: 'The computer cannot ask (its notifications have no buttons). On the computer, run:', command };
      }
      return { title: 'This device may not view the screen',
        body: 'Viewing is off for each device until it is allowed. Ask the computer, or on the computer run:', command };
    }
    case 'noPermission':
      return { title: 'The computer cannot capture its screen',
        body: 'No display was found, or capturing could not start. On the computer, run:',
        command: 'touchdeck doctor' };
    case 'locked':
      return { title: 'The computer is locked', body: 'Unlock it (or wake the screensaver), then try again.' };
    case 'busy':
      return { title: `${viewer || 'Another device'} is viewing the screen`,
        body: 'One device views at a time. Close the view there, or end it on the computer with:',
        command: 'touchdeck disconnect-viewer' };
    case 'cannotExtend':
      return { title: 'The computer could not add a monitor', body: detail || 'Choose one of its monitors instead.' };
    case 'replaced':
      return { title: 'Viewing moved to another window', body: 'This device opened the screen somewhere else.' };
    case 'error':
      return { title: 'The capture stopped', body: 'The monitor may have been unplugged or the display has gone.' };
    case 'ended':
      return { title: 'Viewing was ended on the computer', body: 'You can start again.' };
    case 'cannotDecode':
      return { title: 'This browser cannot decode the video',
        body: 'It offers WebCodecs but fails to decode H.264. On Linux, install gstreamer1.0-libav; otherwise use Safari or Chrome.' };
    case 'unsupported':
      return { title: 'This browser cannot show the screen',
        body: 'Screen viewing needs WebCodecs (Safari 16.4, Chrome 94, or newer). Update the browser.' };
    default:
      return { title: 'Viewing stopped', body: 'You can start again.' };
  }
}

/** While the computer's user has the question (screenPending{asking}). */
export const ASKING = { title: 'Asked the computer…',
  body: 'Someone at the computer can allow this device to view the screen. This waits for an answer, a minute at most.' };

export const WAITING = {
  listing: 'Looking for monitors…',
  starting: 'Starting…',
  approval: 'Waiting for approval on the computer — accept the screen-sharing request there.',
  offline: 'Disconnected — the view comes back when the connection does.',
};
