/**
 * The fixed brand list (spec section 3: "fixed, about 50 brands"). A catalogue
 * product must name one of these; the filter panel lists the ones in stock.
 */
export const BRANDS = [
  'Apple', 'Samsung', 'Tecno', 'Infinix', 'itel', 'Xiaomi', 'Oppo', 'Vivo', 'Realme', 'Nokia',
  'Google', 'OnePlus', 'Huawei', 'Honor', 'Motorola', 'HP', 'Dell', 'Lenovo', 'Asus', 'Acer',
  'Microsoft', 'MSI', 'Razer', 'LG', 'Sony', 'Hisense', 'TCL', 'Panasonic', 'Philips', 'Nintendo',
  'Valve', 'JBL', 'Bose', 'Beats', 'Anker', 'Oraimo', 'Logitech', 'SanDisk', 'Seagate',
  'Western Digital', 'Canon', 'Nikon', 'GoPro', 'DJI', 'Garmin', 'TP-Link', 'Corsair', 'HyperX',
  'SteelSeries', 'EA Sports', 'Ubisoft', 'Rockstar Games', 'Activision', 'Nintendo EPD',
] as const;

export type Brand = (typeof BRANDS)[number];
