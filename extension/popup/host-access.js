// Why JavaScript: whether the browser granted the extension its host permissions, and asking for
// them, are browser APIs a page script calls (permissions.request must run inside the click that
// asks). Firefox treats Manifest V3 host permissions as optional: a person can withhold them at
// install or take them back in the add-ons manager, and then no drop, menu or hub request works.
// This module only shows that state and asks with the reason; it decides nothing else.

import { api, t } from '../pages/background-link.js';

const wanted = () => ({ origins: api.runtime.getManifest().host_permissions ?? [] });

function notice() {
  const box = document.createElement('section');
  box.id = 'host-access';
  box.className = 'host-access';
  box.setAttribute('role', 'alert');
  box.setAttribute('aria-labelledby', 'host-access-heading');
  const heading = document.createElement('h2');
  heading.id = 'host-access-heading';
  heading.textContent = t('hostAccessMissing');
  const reason = document.createElement('p');
  reason.id = 'host-access-reason';
  reason.textContent = t('hostAccessReason');
  const button = document.createElement('button');
  button.type = 'button';
  button.id = 'host-access-grant';
  button.className = 'primary';
  button.textContent = t('hostAccessGrant');
  const result = document.createElement('p');
  result.id = 'host-access-result';
  result.setAttribute('role', 'status');
  button.addEventListener('click', () => {
    // Called synchronously in the click: browsers refuse a request outside a user action.
    api.permissions.request(wanted()).then(
      (granted) => {
        result.textContent = granted ? '' : t('hostAccessDenied');
        if (granted) box.remove();
      },
      (error) => { result.textContent = `${t('hostAccessDenied')} ${String(error?.message ?? error)}`; },
    );
  });
  box.append(heading, reason, button, result);
  return box;
}

async function check() {
  if (!api.permissions?.contains) return;
  const granted = await api.permissions.contains(wanted());
  const shown = document.getElementById('host-access');
  if (granted) {
    shown?.remove();
  } else if (!shown) {
    document.querySelector('main')?.prepend(notice());
  }
}

check();
api.permissions?.onAdded?.addListener(check);
api.permissions?.onRemoved?.addListener(check);
