/**
 * The licences a dataset can be offered under, by SPDX identifier (https://spdx.org/licenses/),
 * with the address open-data metadata (schema.org, DCAT, Data Package) links to. A licence not in
 * this list is kept as the owner's own words ("other").
 */
export interface Licence {
  /** The SPDX identifier, stored on the dataset. */
  id: string;
  title: string;
  url: string;
}

export const LICENCES: readonly Licence[] = [
  {
    id: 'CC-BY-4.0',
    title: 'Creative Commons Attribution 4.0',
    url: 'https://creativecommons.org/licenses/by/4.0/',
  },
  {
    id: 'CC-BY-SA-4.0',
    title: 'Creative Commons Attribution Share Alike 4.0',
    url: 'https://creativecommons.org/licenses/by-sa/4.0/',
  },
  {
    id: 'CC0-1.0',
    title: 'Creative Commons Zero 1.0 (public domain)',
    url: 'https://creativecommons.org/publicdomain/zero/1.0/',
  },
  {
    id: 'ODbL-1.0',
    title: 'Open Data Commons Open Database License 1.0',
    url: 'https://opendatacommons.org/licenses/odbl/1-0/',
  },
  {
    id: 'ODC-By-1.0',
    title: 'Open Data Commons Attribution License 1.0',
    url: 'https://opendatacommons.org/licenses/by/1-0/',
  },
  {
    id: 'PDDL-1.0',
    title: 'Open Data Commons Public Domain Dedication and License 1.0',
    url: 'https://opendatacommons.org/licenses/pddl/1-0/',
  },
  {
    id: 'OGL-UK-3.0',
    title: 'Open Government Licence v3.0',
    url: 'https://www.nationalarchives.gov.uk/doc/open-government-licence/version/3/',
  },
  { id: 'MIT', title: 'MIT License', url: 'https://opensource.org/licenses/MIT' },
  { id: 'Apache-2.0', title: 'Apache License 2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0' },
];

/** Letters and digits only, so "CC BY 4.0", "cc-by-4.0" and "CC_BY 4.0" compare equal. */
const squash = (text: string) => text.toLowerCase().replace(/[^a-z0-9]/g, '');
const squashUrl = (text: string) => squash(text.replace(/^https?:\/\/(www\.)?/i, ''));

/**
 * The listed licence a text names (its SPDX id in any spacing or case, its title, or its address),
 * or undefined when the text is the owner's own wording.
 */
export function findLicence(text: string): Licence | undefined {
  const key = squash(text);
  if (!key) return undefined;
  if (/^https?:\/\//i.test(text.trim())) {
    const url = squashUrl(text.trim());
    return LICENCES.find((licence) => squashUrl(licence.url) === url);
  }
  return LICENCES.find((licence) => squash(licence.id) === key || squash(licence.title) === key);
}

/** What to store for an owner's licence: the SPDX id when it is a listed one, else the text as given. */
export function normaliseLicence(text: string): string {
  const trimmed = text.trim();
  return findLicence(trimmed)?.id ?? trimmed;
}
