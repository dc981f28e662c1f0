//! Which rider lines join two squares, found by the offset between them
//! (their difference of files and of ranks): a table as large as the board
//! (about four entries a cell), where one by pairs of squares would grow
//! with the square of its size (280 MB at 36×36).

use crate::board::{Square, Topology};

/// The rider directions of the rules by offset: for a pair of squares,
/// the tables (in `Rules::rays`) of the unlimited rays of every rider
/// direction along which one lies a whole number of steps from the other.
#[derive(Clone, Debug)]
pub(crate) struct Lines {
    /// Each cell's place in the offset table: `rank × width + file`.
    key: Vec<u32>,
    /// Where the offset (0, 0) is in `by_offset`.
    center: u32,
    /// For each offset, the ray table of its one direction, or [`NONE`],
    /// or [`MANY`] and where its directions are in `many`.
    by_offset: Vec<u32>,
    /// Offsets that more than one direction reaches (a rider of one step
    /// and one of two along the same line), in the order found.
    many: Vec<Vec<u32>>,
}

/// No rider direction joins the two squares.
const NONE: u32 = u32::MAX;
/// Several do: the entry's other bits index `Lines::many`.
const MANY: u32 = 1 << 31;

/// What joins two squares.
pub(crate) enum Joined<'a> {
    None,
    /// One direction: its ray table.
    One(u32),
    /// Several, in the order the directions were found.
    Many(&'a [u32]),
}

impl Lines {
    /// The lines of `directions` (file and rank steps) on `topology`;
    /// `full_ray` gives a direction's unlimited ray table (its offset in
    /// `Rules::rays`).
    pub(crate) fn new(
        topology: Topology,
        directions: &[(i32, i32)],
        full_ray: impl Fn(i32, i32) -> u32,
    ) -> Lines {
        let cols = topology.cols as i32;
        let rows = topology.rows as i32;
        let width = 2 * cols - 1;
        let center = ((rows - 1) * width + cols - 1) as u32;
        let mut per_offset: Vec<Vec<u32>> = vec![Vec::new(); (width * (2 * rows - 1)) as usize];
        for &(dx, dy) in directions.iter().filter(|&&d| d != (0, 0)) {
            let table = full_ray(dx, dy);
            for k in 1.. {
                let (df, dr) = (dx * k, dy * k);
                if df.abs() >= cols || dr.abs() >= rows {
                    break;
                }
                per_offset[(center as i32 + dr * width + df) as usize].push(table);
            }
        }
        let mut many = Vec::new();
        let by_offset = per_offset
            .into_iter()
            .map(|tables| match tables.len() {
                0 => NONE,
                1 => tables[0],
                _ => {
                    many.push(tables);
                    MANY | (many.len() as u32 - 1)
                }
            })
            .collect();
        Lines {
            key: topology
                .cells()
                .map(|c| topology.rank(c) as u32 * width as u32 + topology.file(c) as u32)
                .collect(),
            center,
            by_offset,
            many,
        }
    }

    /// The ray tables of the directions that may join `a` to `b` (from `a`
    /// toward `b`).
    #[inline]
    pub(crate) fn joined(&self, a: Square, b: Square) -> Joined<'_> {
        let i = self.key[b.index()] + self.center - self.key[a.index()];
        match self.by_offset[i as usize] {
            NONE => Joined::None,
            e if e & MANY != 0 => Joined::Many(&self.many[(e & !MANY) as usize]),
            e => Joined::One(e),
        }
    }
}
