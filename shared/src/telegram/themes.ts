/** Telegram's own default palettes (what a client sends as `theme_params`). */
export const TELEGRAM_THEMES = {
  dark: {
    bg_color: '#212121',
    text_color: '#ffffff',
    hint_color: '#aaaaaa',
    link_color: '#8cc2e6',
    button_color: '#2ea6ff',
    button_text_color: '#ffffff',
    secondary_bg_color: '#181818',
    header_bg_color: '#212121',
    accent_text_color: '#6ab2f2',
    section_bg_color: '#212121',
    section_header_text_color: '#6ab2f2',
    subtitle_text_color: '#aaaaaa',
    destructive_text_color: '#ef5b5b',
  },
  light: {
    bg_color: '#ffffff',
    text_color: '#000000',
    hint_color: '#707579',
    link_color: '#3390ec',
    button_color: '#3390ec',
    button_text_color: '#ffffff',
    secondary_bg_color: '#f4f4f5',
    header_bg_color: '#ffffff',
    accent_text_color: '#3390ec',
    section_bg_color: '#ffffff',
    section_header_text_color: '#3390ec',
    subtitle_text_color: '#707579',
    destructive_text_color: '#e53935',
  },
} as const;

/**
 * The default day and night palettes of Telegram's mobile clients, which differ from the
 * desktop and web ones above (iOS: Apple's system colours, black at night; Android: blue
 * headers by day, blue-grey at night). Taken from the clients' default themes as they send
 * them; the desktop palette stays the one for tdesktop, web and macOS.
 */
export const MOBILE_TELEGRAM_THEMES = {
  ios: {
    light: {
      bg_color: '#ffffff',
      text_color: '#000000',
      hint_color: '#8e8e93',
      link_color: '#007aff',
      button_color: '#007aff',
      button_text_color: '#ffffff',
      secondary_bg_color: '#efeff4',
      header_bg_color: '#f8f8f8',
      accent_text_color: '#007aff',
      section_bg_color: '#ffffff',
      section_header_text_color: '#6d6d72',
      subtitle_text_color: '#8e8e93',
      destructive_text_color: '#ff3b30',
    },
    dark: {
      bg_color: '#000000',
      text_color: '#ffffff',
      hint_color: '#98989e',
      link_color: '#3e88f7',
      button_color: '#3e88f7',
      button_text_color: '#ffffff',
      secondary_bg_color: '#1c1c1d',
      header_bg_color: '#1a1a1a',
      accent_text_color: '#3e88f7',
      section_bg_color: '#2c2c2e',
      section_header_text_color: '#8d8e93',
      subtitle_text_color: '#98989e',
      destructive_text_color: '#eb5545',
    },
  },
  android: {
    light: {
      bg_color: '#ffffff',
      text_color: '#000000',
      hint_color: '#a8a8a8',
      link_color: '#2678b6',
      button_color: '#50a8eb',
      button_text_color: '#ffffff',
      secondary_bg_color: '#f0f0f0',
      header_bg_color: '#527da3',
      accent_text_color: '#1c93e3',
      section_bg_color: '#ffffff',
      section_header_text_color: '#3a95d5',
      subtitle_text_color: '#82868a',
      destructive_text_color: '#cc2929',
    },
    dark: {
      bg_color: '#212d3b',
      text_color: '#ffffff',
      hint_color: '#7d8b99',
      link_color: '#62bcf9',
      button_color: '#50a8eb',
      button_text_color: '#ffffff',
      secondary_bg_color: '#151e27',
      header_bg_color: '#242d39',
      accent_text_color: '#64b5ef',
      section_bg_color: '#1d2733',
      section_header_text_color: '#79c4fc',
      subtitle_text_color: '#7b8790',
      destructive_text_color: '#ee686f',
    },
  },
} as const;

/** The palette Telegram's client on `platform` sends for `theme`. */
export function telegramTheme(
  platform: string,
  theme: 'light' | 'dark',
): (typeof TELEGRAM_THEMES)[keyof typeof TELEGRAM_THEMES] | Record<string, string> {
  if (platform === 'ios' || platform === 'android') return MOBILE_TELEGRAM_THEMES[platform][theme];
  return TELEGRAM_THEMES[theme];
}
