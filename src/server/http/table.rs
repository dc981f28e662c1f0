//! The open connections and the workers' turns.

use std::collections::HashMap;
use std::net::{Shutdown, TcpStream};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

/// The open connections. When [`Config::max_connections`](crate::server::Config::max_connections) are open, a new
/// one takes the place of the one that has waited longest on its client
/// (for its head, its body, or its next request); only connections whose
/// requests are being answered are never closed for another.
#[derive(Default)]
pub(super) struct Table {
    open: Mutex<Open>,
}

#[derive(Default)]
struct Open {
    next: u64,
    conns: HashMap<u64, Conn>,
}

struct Conn {
    stream: Arc<TcpStream>,
    /// Since when it waits on its client; `None` while being answered.
    waiting: Option<Instant>,
}

impl Open {
    fn evict_longest_waiting(&mut self) -> bool {
        let oldest = self
            .conns
            .iter()
            .filter_map(|(id, c)| c.waiting.map(|t| (t, *id)))
            .min();
        let Some((_, id)) = oldest else {
            return false;
        };
        if let Some(c) = self.conns.remove(&id) {
            // Its thread's read returns at once, and the thread ends.
            let _ = c.stream.shutdown(Shutdown::Both);
        }
        true
    }
}

impl Table {
    /// Registers a new connection, making room if `max` are open;
    /// `None` if all of them are being answered.
    pub(super) fn admit(&self, stream: &Arc<TcpStream>, max: usize) -> Option<u64> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if open.conns.len() >= max.max(1) && !open.evict_longest_waiting() {
            return None;
        }
        open.next += 1;
        let id = open.next;
        let conn = Conn {
            stream: Arc::clone(stream),
            waiting: Some(Instant::now()),
        };
        open.conns.insert(id, conn);
        Some(id)
    }

    pub(super) fn evict_longest_waiting(&self) -> bool {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.evict_longest_waiting()
    }

    /// Marks a connection waiting on its client (or not); `false` if it
    /// was closed for another meanwhile.
    pub(super) fn set_waiting(&self, id: u64, waiting: bool) -> bool {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        match open.conns.get_mut(&id) {
            Some(c) => {
                c.waiting = waiting.then(Instant::now);
                true
            }
            None => false,
        }
    }

    pub(super) fn remove(&self, id: u64) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.conns.remove(&id);
    }

    /// Closes every connection that waits on its client (when stopping).
    pub(super) fn close_waiting(&self) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        while open.evict_longest_waiting() {}
    }
}

/// Takes a connection out of the table when its thread ends.
pub(super) struct Gone<'a>(pub(super) &'a Table, pub(super) u64);

impl Drop for Gone<'_> {
    fn drop(&mut self) {
        self.0.remove(self.1);
    }
}

/// [`Config::workers`](crate::server::Config::workers): how many requests are answered at once.
pub(super) struct Workers {
    free: Mutex<usize>,
    freed: Condvar,
}

/// A worker's turn, given back when dropped.
pub(super) struct Turn<'a>(&'a Workers);

impl Workers {
    pub(super) fn new(n: usize) -> Workers {
        Workers {
            free: Mutex::new(n),
            freed: Condvar::new(),
        }
    }

    pub(super) fn take(&self) -> Turn<'_> {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        while *free == 0 {
            free = self.freed.wait(free).unwrap_or_else(|e| e.into_inner());
        }
        *free -= 1;
        Turn(self)
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        let mut free = self.0.free.lock().unwrap_or_else(|e| e.into_inner());
        *free += 1;
        self.0.freed.notify_one();
    }
}
