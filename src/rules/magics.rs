// The magic bitboards of the sliders of chess: their directions, their multipliers and the
// filling of their attack table. Plain Rust, without the crate's paths: `build.rs` includes
// this file to fill the table once, at build time, and `chess.rs` includes it for the masks
// and offsets (and its tests, to fill the table again and compare).

/// The squares a slider on `s` reaches along `dirs` with `occ` occupied (each ray up to and
/// including its first occupied square). A `const fn`, so that the tables built from it are
/// filled at compile time.
const fn slide(s: u8, occ: u64, dirs: &[(i32, i32)]) -> u64 {
    let mut b = 0;
    let (f, r) = ((s % 8) as i32, (s / 8) as i32);
    let mut i = 0;
    while i < dirs.len() {
        let (dx, dy) = dirs[i];
        let (mut x, mut y) = (f + dx, r + dy);
        while x >= 0 && x < 8 && y >= 0 && y < 8 {
            let t = (y * 8 + x) as u8;
            b |= 1u64 << t;
            if occ & (1u64 << t) != 0 {
                break;
            }
            x += dx;
            y += dy;
        }
        i += 1;
    }
    b
}

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Magic multipliers of the rook attack tables, one per square (found once by a random search
/// for sparse multipliers, then fixed here).
#[rustfmt::skip]
const ROOK_MAGICS: [u64; 64] = [
    0x0080008040002018, 0x0040100040002001, 0x09000D0010200040, 0x8080080010008004,
    0xA280080002340080, 0x2500050024000208, 0x0280010000800200, 0x1100144380220100,
    0xA92080048C204002, 0x0802804003200080, 0x0108802000100089, 0x8060800800801002,
    0xA002000822000410, 0x950A001002000824, 0x1202000408010200, 0x02950008408A0100,
    0x40A0A18000814000, 0x0080848020004011, 0x0800828010002000, 0x0500420010200A00,
    0x0008818004000802, 0x0000808004000200, 0x0000040001020810, 0x0081120000442081,
    0x0522400180002090, 0x2800200040401000, 0x402004A180100481, 0x0880420200200810,
    0x000A040080800800, 0x080A000404001020, 0x0000010400820810, 0x4000D08200004C09,
    0x0100804000800020, 0xCC01028026004200, 0x0081002001004010, 0x0000800800801000,
    0x0009800401802800, 0x0002000902000410, 0x0000180144001022, 0x00008100C6002884,
    0x1200800040008024, 0x2000200050044000, 0x0090882200420010, 0x6A1810200A020040,
    0x0480040008008080, 0x0206001108160014, 0xC010040200010100, 0x000001018046000C,
    0x00B0400880042080, 0x0040002010080220, 0x0020004228110100, 0x0150000804004140,
    0x0028008004000980, 0x0801000804000300, 0x2C80210208900400, 0x0000040130408200,
    0x4001409100258001, 0x0005004002883021, 0x019041E003001019, 0x8000200900041001,
    0x4021001002040801, 0x0011000400080201, 0x1600010210408804, 0x2010810084003042,
];

/// Magic multipliers of the bishop attack tables.
#[rustfmt::skip]
const BISHOP_MAGICS: [u64; 64] = [
    0x0032482800818200, 0x0819022820450000, 0x4242108204880008, 0x8044404080410224,
    0x1407104000080100, 0x1B01100210004000, 0x0B0C0888841010C1, 0x08A0108201104020,
    0x00003888654C0410, 0x0010220202520A00, 0x4003048400820001, 0x1007022082000002,
    0x3C22040420040A18, 0x3440508820080030, 0x1204208090082100, 0x0000930501012000,
    0x0010842002D00100, 0x0202000404484208, 0x0008000100410602, 0x0088000404200800,
    0xA004100202020232, 0x0004200100A01002, 0x0201000208020200, 0x2022010022020200,
    0x80100410100410B0, 0x3010704848011100, 0x2000380010048320, 0x8068080000202120,
    0x0001010080104000, 0x4808004120806000, 0x5000821000823008, 0x0004010000504224,
    0x0088044010040808, 0x0812022000032814, 0xA000280800110202, 0x2882200802010105,
    0x0508082400024100, 0x8001010200030800, 0x4001260E00019820, 0x0C02040308507180,
    0x0880884441009000, 0x20A84202A0011000, 0x00010410820C1000, 0x4000002018000108,
    0x0080091124004A00, 0x0409010302010700, 0x0088128802040040, 0x1801010408801100,
    0x0184010190110800, 0x0000404208210000, 0x0000120908880000, 0x9006180020884020,
    0x900000400488410A, 0x0410218401020100, 0x0004D00428008100, 0x0002021404008400,
    0x0911410150222026, 0x0300202088041040, 0x0100A06124122800, 0x001C042000420200,
    0x0004018208030400, 0x0044040405080200, 0x040820200402B680, 0x0204200411020410,
];

/// The relevant occupancy of a slider on `s` along `dirs`: its rays without their last
/// square, which blocks nothing beyond it.
const fn relevant_mask(s: u8, dirs: &[(i32, i32)]) -> u64 {
    let (f, r) = ((s % 8) as i32, (s / 8) as i32);
    let mut mask = 0u64;
    let mut i = 0;
    while i < dirs.len() {
        let (dx, dy) = dirs[i];
        let (mut x, mut y) = (f + dx, r + dy);
        while x + dx >= 0 && x + dx < 8 && y + dy >= 0 && y + dy < 8 {
            mask |= 1u64 << (y * 8 + x);
            x += dx;
            y += dy;
        }
        i += 1;
    }
    mask
}

/// Fills the attack table of a slider on `dirs` with the given magics, appending it to
/// `attacks`: per square, its slot is at the square's offset plus the occupancy masked,
/// multiplied by the magic and shifted right by 64 less the mask's bit count (the offsets
/// follow each other, square by square, in this order).
///
/// # Panics
/// When a magic maps two occupancies with different attack sets to one slot.
#[allow(dead_code)]
fn fill_magics(dirs: &[(i32, i32)], magics: &[u64; 64], attacks: &mut Vec<u64>) {
    for (s, &magic) in (0..64u8).zip(magics) {
        let mask = relevant_mask(s, dirs);
        let bits = mask.count_ones();
        let shift = 64 - bits;
        let offset = attacks.len();
        attacks.resize(offset + (1usize << bits), 0);
        // Walk every subset of the mask (Carry-Rippler). An attack set is never empty, so
        // 0 marks a free slot.
        let mut sub = 0u64;
        loop {
            let a = slide(s, sub, dirs);
            let slot = &mut attacks[offset + (sub.wrapping_mul(magic) >> shift) as usize];
            assert!(*slot == 0 || *slot == a, "magic {magic:#x} of square {s} collides");
            *slot = a;
            sub = sub.wrapping_sub(mask) & mask;
            if sub == 0 {
                break;
            }
        }
    }
}
