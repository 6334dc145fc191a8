//! TCP endpoints: the sender (with congestion control and the RTO) and the receiver.

pub mod cc;
pub mod env;
pub mod receiver;
pub mod recovery;
pub mod rtt;
pub mod sender;
#[cfg(test)]
pub(crate) mod testnet;
