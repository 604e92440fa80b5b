/** A device the screenshot endpoint can emulate. Sizes are CSS pixels. */
export interface ViewportPreset {
  width: number;
  height: number;
  /** Device pixel ratio of the real device; used when the request gives no `scale`. */
  deviceScaleFactor: number;
  isMobile: boolean;
  hasTouch: boolean;
}

const device = (width: number, height: number, deviceScaleFactor: number, mobile = false): ViewportPreset => ({
  width,
  height,
  deviceScaleFactor,
  isMobile: mobile,
  hasTouch: mobile,
});

const landscape = (p: ViewportPreset): ViewportPreset => ({ ...p, width: p.height, height: p.width });

const mobile = device(375, 812, 3, true); // iPhone X/11 Pro/12 mini class
const tablet = device(768, 1024, 2, true); // iPad (9.7")

/**
 * The contract's 19 presets. Stated sizes are the contract's; the others come from the
 * devices they name (CSS viewport and device pixel ratio as the devices report them).
 */
export const viewportPresets = {
  mobile,
  mobile_landscape: landscape(mobile),
  tablet,
  tablet_landscape: landscape(tablet),
  desktop: device(1280, 720, 1),
  desktop_hd: device(1920, 1080, 1),
  desktop_4k: device(3840, 2160, 1),
  macbook: device(1440, 900, 2),
  iphone_se: device(375, 667, 2, true),
  iphone_14: device(390, 844, 3, true),
  iphone_14_pro_max: device(430, 932, 3, true),
  pixel_7: device(412, 915, 2.625, true),
  galaxy_s21: device(360, 800, 3, true),
  ipad_mini: device(744, 1133, 2, true), // iPad mini (6th generation)
  ipad_pro: device(1024, 1366, 2, true), // iPad Pro 12.9"
  linkedin: device(1200, 627, 1),
  twitter: device(1200, 675, 1),
  facebook: device(1200, 630, 1),
  og: device(1200, 630, 1),
} as const satisfies Record<string, ViewportPreset>;

export type ViewportName = keyof typeof viewportPresets;
export const viewportNames = Object.keys(viewportPresets) as [ViewportName, ...ViewportName[]];
