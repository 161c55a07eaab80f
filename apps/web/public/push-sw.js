/**
 * Web Push in the app's service worker: Workbox's generated worker imports this file
 * (vite.config.ts, workbox.importScripts). A push from the server (modules/push on the stand-in)
 * carries `{ title, body, url, tag }`: it is shown as a notification with the app's icon; a click
 * on it focuses a window of the app and takes it to `url` (the screen of the notice), or opens one.
 * Only a path of this app is followed: anything else opens the dashboard.
 */
(function (scope) {
  'use strict';
  var FALLBACK_URL = '/dashboard';
  var ICON = '/icons/icon-192.png';

  /** A path of this origin for `url`; the dashboard for anything else (another site, a bad value). */
  function screenOf(url) {
    if (typeof url !== 'string' || url === '') return FALLBACK_URL;
    try {
      var target = new URL(url, scope.location.origin);
      if (target.origin !== scope.location.origin) return FALLBACK_URL;
      return target.pathname + target.search + target.hash;
    } catch {
      return FALLBACK_URL;
    }
  }

  /** The push's message: its JSON, or its text as the body. */
  function messageOf(data) {
    if (!data) return {};
    try {
      var json = data.json();
      return json && typeof json === 'object' ? json : { body: String(json) };
    } catch {
      return { body: data.text() };
    }
  }

  function showPush(data) {
    var message = messageOf(data);
    var options = {
      body: typeof message.body === 'string' ? message.body : '',
      icon: ICON,
      badge: ICON,
      data: { url: screenOf(message.url) },
    };
    // One notification per notice: the same TransID replaces, never stacks.
    if (typeof message.tag === 'string' && message.tag !== '') options.tag = message.tag;
    var title =
      typeof message.title === 'string' && message.title !== '' ? message.title : 'Member Dashboard';
    return scope.registration.showNotification(title, options);
  }

  /** Focuses a window of the app and takes it to `url`, else opens one there. */
  function openScreen(url) {
    var target = screenOf(url);
    var absolute = new URL(target, scope.location.origin).href;
    return scope.clients.matchAll({ type: 'window', includeUncontrolled: true }).then(function (windows) {
      var open = windows.filter(function (client) {
        return new URL(client.url).origin === scope.location.origin;
      });
      var client =
        open.find(function (c) {
          return c.focused;
        }) || open[0];
      if (!client) return scope.clients.openWindow(absolute);
      return client.focus().then(function (focused) {
        var win = focused || client;
        if (win.url === absolute) return win;
        if (typeof win.navigate !== 'function') return scope.clients.openWindow(absolute);
        return win.navigate(absolute).then(function (navigated) {
          // null: a window this worker does not control cannot be navigated; open the screen instead.
          return navigated || scope.clients.openWindow(absolute);
        });
      });
    });
  }

  scope.addEventListener('push', function (event) {
    event.waitUntil(showPush(event.data));
  });
  scope.addEventListener('notificationclick', function (event) {
    event.notification.close();
    event.waitUntil(openScreen(event.notification.data && event.notification.data.url));
  });
})(self);
