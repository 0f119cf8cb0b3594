import { deferMenu } from './deferred-menu';
import { LanguageSwitchButton } from './language-switch-button';

/** The login page's language menu, fetched once the page is on screen (see deferMenu). */
export const DeferredLanguageSwitch = deferMenu(
  () => import('./language-switch').then(({ LanguageSwitch }) => LanguageSwitch),
  LanguageSwitchButton,
);
