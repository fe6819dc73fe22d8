/**
 * Zones IANA has renamed whose old name ICU (and so Intl in Node and in some browsers) still gives as canonical:
 * Intl resolves "Europe/Kyiv" to "Europe/Kiev" and lists no Kyiv. The app shows and stores IANA's current names, so it
 * maps each old name here. Intl accepts both spellings, so the current one formats dates as well. A newer ICU that
 * already answers with the current name leaves the table unused.
 */
export const RENAMED_ZONES: Readonly<Record<string, string>> = {
  "Africa/Asmera": "Africa/Asmara",
  "America/Buenos_Aires": "America/Argentina/Buenos_Aires",
  "America/Catamarca": "America/Argentina/Catamarca",
  "America/Coral_Harbour": "America/Atikokan",
  "America/Cordoba": "America/Argentina/Cordoba",
  "America/Godthab": "America/Nuuk",
  "America/Indianapolis": "America/Indiana/Indianapolis",
  "America/Jujuy": "America/Argentina/Jujuy",
  "America/Louisville": "America/Kentucky/Louisville",
  "America/Mendoza": "America/Argentina/Mendoza",
  "Asia/Calcutta": "Asia/Kolkata",
  "Asia/Katmandu": "Asia/Kathmandu",
  "Asia/Rangoon": "Asia/Yangon",
  "Asia/Saigon": "Asia/Ho_Chi_Minh",
  "Atlantic/Faeroe": "Atlantic/Faroe",
  "Europe/Kiev": "Europe/Kyiv",
  "Pacific/Enderbury": "Pacific/Kanton",
  "Pacific/Ponape": "Pacific/Pohnpei",
  "Pacific/Truk": "Pacific/Chuuk",
};

/** IANA's current name of a zone Intl spells the old way ("Europe/Kiev" → "Europe/Kyiv"); other names unchanged. */
export const currentZoneName = (zone: string): string => RENAMED_ZONES[zone] ?? zone;
