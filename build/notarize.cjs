// electron-builder afterSign hook: notarizes the signed macOS app when the APPLE_* environment names an
// App Store Connect API key (preferred) or an Apple ID; otherwise it says why it skips. Never on other OSes.
'use strict';

/** Notarization options from the environment, or null when it does not name a complete set of credentials. */
function notarizeOptions(env) {
  if (env.APPLE_API_KEY && env.APPLE_API_KEY_ID && env.APPLE_API_ISSUER) {
    return {
      appleApiKey: env.APPLE_API_KEY,
      appleApiKeyId: env.APPLE_API_KEY_ID,
      appleApiIssuer: env.APPLE_API_ISSUER,
    };
  }
  if (env.APPLE_ID && env.APPLE_APP_SPECIFIC_PASSWORD && env.APPLE_TEAM_ID) {
    return { appleId: env.APPLE_ID, appleIdPassword: env.APPLE_APP_SPECIFIC_PASSWORD, teamId: env.APPLE_TEAM_ID };
  }
  return null;
}

async function afterSign(context) {
  if (context.electronPlatformName !== 'darwin') return;
  const credentials = notarizeOptions(process.env);
  if (!credentials) {
    console.log(
      'notarize: skipped (set APPLE_API_KEY, APPLE_API_KEY_ID, APPLE_API_ISSUER, or APPLE_ID, APPLE_APP_SPECIFIC_PASSWORD, APPLE_TEAM_ID)',
    );
    return;
  }
  const { notarize } = await import('@electron/notarize');
  const appPath = `${context.appOutDir}/${context.packager.appInfo.productFilename}.app`;
  await notarize({ appPath, ...credentials });
}

module.exports = afterSign;
module.exports.default = afterSign;
module.exports.notarizeOptions = notarizeOptions;
