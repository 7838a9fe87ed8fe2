/** Word lists for the synthetic world. Every name is made up. */

export const FIRST_NAMES = [
  'Ada', 'Bram', 'Celia', 'Dorian', 'Elena', 'Felix', 'Greta', 'Hugo', 'Ines', 'Jonas', 'Kira', 'Lucan',
  'Mira', 'Nils', 'Odile', 'Pavel', 'Quinn', 'Rosa', 'Silas', 'Tova', 'Ulric', 'Vera', 'Wren', 'Xavi',
  'Yara', 'Zeno', 'Anouk', 'Basil', 'Cleo', 'Dario', 'Esme', 'Florin', 'Gideon', 'Hana', 'Ivo', 'Juno',
];

export const LAST_NAMES = [
  'Castellan', 'Draybrook', 'Ellory', 'Fairweather', 'Gallant', 'Holloway', 'Ivers', 'Jarrow', 'Kestrel',
  'Lindqvist', 'Marlowe', 'Northcott', 'Okafor', 'Pemberton', 'Quenby', 'Ravel', 'Sandoval', 'Thorne',
  'Underhill', 'Valcourt', 'Whitlock', 'Yardley', 'Zell', 'Ashby', 'Brisco', 'Crane', 'Dunmore', 'Everard',
  'Fenwick', 'Greaves', 'Hartigan', 'Ingram', 'Juniper', 'Kowal', 'Larkspur', 'Merrow',
];

export const CITIES = [
  'Port Alder', 'Brightwater', 'Cinder Bay', 'Dunmere', 'East Harlow', 'Fallowmere', 'Greystone', 'Highmoor',
  'Ironvale', 'Juniper Falls', 'Kingsreach', 'Lowmarsh', 'Millbrook', 'Northhaven', 'Oakridge', 'Pinecrest',
  'Queensford', 'Redcliff', 'Silverlake', 'Thornbury',
];

export const MASCOTS = [
  'Comets', 'Foxes', 'Herons', 'Lynx', 'Mariners', 'Owls', 'Pilots', 'Ravens', 'Rockets', 'Stags', 'Tides',
  'Wolves', 'Badgers', 'Falcons', 'Giants', 'Knights',
];

export const LEAGUES = ['Continental League', 'Premier Circuit', 'Harbor Cup', 'Northern Conference', 'Grand Series'];

export const COINS = ['Aurum', 'Zephyr', 'Quanta', 'Lumen', 'Nimbus', 'Ferro', 'Vela', 'Orbit'];

export const COMPANIES_A = ['Arc', 'Blue', 'Core', 'Deep', 'Echo', 'Flux', 'Giga', 'Helio', 'Iso', 'Kilo', 'Nova', 'Omni'];
export const COMPANIES_B = ['Labs', 'Systems', 'Works', 'Dynamics', 'Logic', 'Mind', 'Forge', 'Signal'];

export const FILM_ADJECTIVES = ['Silent', 'Crimson', 'Last', 'Hidden', 'Golden', 'Broken', 'Distant', 'Endless', 'Paper', 'Winter'];
export const FILM_NOUNS = ['Harbor', 'Garden', 'Signal', 'Orchard', 'Lantern', 'Summit', 'Archive', 'Voyage', 'Mirror', 'Comet'];

export const AWARDS = ['Meridian Awards', 'Silver Reel Festival', 'Lumen Prize', 'Harbor Film Gala'];

export const PARTIES = ['Union Party', 'Civic Alliance', 'Green Compact', 'Reform Bloc'];

export const COUNTRIES = ['Valdoria', 'Ostrand', 'Meridia', 'Kelvara', 'Norwind', 'Sarentia'];

export const POLITICAL_ACTS = [
  'announce a presidential run',
  'resign as party leader',
  'win the regional primary',
  'sign the trade accord',
  'form a coalition government',
];

export const TECH_ACTS = ['release a new flagship model', 'announce a public listing', 'ship a consumer headset', 'open a new research lab'];

export const TAG_LABELS = [
  'Politics', 'Elections', 'Sports', 'Football', 'Basketball', 'Crypto', 'Prices', 'Culture', 'Movies', 'Awards',
  'Weather', 'Climate', 'Science', 'Tech', 'AI', 'Business', 'Economy', 'World', 'Breaking News', 'Daily',
  'Weekly', 'Featured', 'Trending', 'Up or Down',
];

export const PSEUDONYM_ADJECTIVES = [
  'Pale', 'Bright', 'Quiet', 'Rapid', 'Lucky', 'Stern', 'Gentle', 'Bold', 'Wary', 'Calm', 'Sly', 'Merry',
  'Brave', 'Dusty', 'Frosty', 'Hazy',
];
export const PSEUDONYM_NOUNS = [
  'Bend', 'Hamster', 'Otter', 'Falcon', 'Meadow', 'Harbor', 'Pebble', 'Maple', 'Comet', 'Badger', 'Lantern',
  'Thistle', 'Willow', 'Raven', 'Cricket', 'Summit',
];

export const BIOS = [
  '',
  '',
  'Forecasting for fun.',
  'Macro and markets.',
  'Sports nerd. Not financial advice.',
  'I read the resolution rules.',
  'Long volatility.',
];

export const COMMENT_OPENERS = [
  'Pretty sure this resolves',
  'The odds look off here,',
  'Holding my position:',
  'Interesting move overnight,',
  'Read the rules again:',
  'Not convinced,',
  'Easy money if you ask me,',
  'Market is sleeping on this,',
];
export const COMMENT_CLOSERS = [
  'Yes.',
  'No.',
  'the spread is too wide.',
  'news should drop this week.',
  'the resolution source is clear.',
  'volume will pick up near the end.',
  'too much uncertainty for now.',
];
export const REPLY_BODIES = ['Agreed.', 'Disagree, strongly.', 'Source?', 'We will see.', 'This aged well.', 'Bought more.'];

export const REACTION_TYPES = ['HEART', 'THUMBS_UP', 'LAUGH', 'FIRE'];

export const CREATOR_NAMES = [
  'Harbor Markets', 'Northwind Research', 'Ledger Lane', 'Quorum Desk', 'Odds Foundry', 'Signal House',
  'Meridian Data', 'Civic Lens', 'Field Notes', 'Tally Works',
];

export const SERIES_SUBJECTS = ['Aurum Daily', 'Weekly Weather', 'Continental League Matchday', 'Monthly Macro', 'Award Season', 'AI Race'];

export const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December',
];
